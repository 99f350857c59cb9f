import type { ArgCommandsOf } from '../../../state/commandIds.ts';
import type { TeamSync } from '../../../persistence/teamSync.ts';

declare module '../../../state/commandIds.ts' {
  interface ArgCommands {
    /** Each answering in words returns the problem, or null. */
    'team.connect': (url: string, user: string, password: string) => Promise<string | null>;
    'team.join': (url: string, user: string, password: string, progress: (done: number, total: number) => void) => Promise<string | null>;
    'team.signIn': (password: string) => Promise<void>;
    'team.signOut': () => void;
    'team.disconnect': () => Promise<void>;
    /** Keep this side of a conflict (the record's key and the revision kept). */
    'team.keep': (key: string, rev: string) => Promise<string | null>;
  }
}

const notReady = 'The studio is still opening; try again in a moment.';

/** The open project's team database (persistence/teamSync.ts), once the studio has opened its storage. */
export function teamArgCommands(team: () => TeamSync | null): ArgCommandsOf<'team'> {
  return {
    'team.connect': (url, user, password) => team()?.connect(url, user, password) ?? Promise.resolve(notReady),
    'team.join': (url, user, password, progress) => team()?.join(url, user, password, progress) ?? Promise.resolve(notReady),
    'team.signIn': (password) => team()?.signIn(password) ?? Promise.resolve(),
    'team.signOut': () => void team()?.signOut(),
    'team.disconnect': () => team()?.disconnect() ?? Promise.resolve(),
    'team.keep': (key, rev) => team()?.keep(key, rev) ?? Promise.resolve(notReady),
  };
}
