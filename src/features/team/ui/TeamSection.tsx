import { useState } from 'react';
import { describeKey } from '../../../core/records/merge.ts';
import type { TeamState } from '../../../state/store.ts';
import { useStudio } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';

/** The team state in a few words, for the header badge and the panel. */
export function teamSummary(t: TeamState): string {
  const waiting = t.waiting ? `${t.waiting} change${t.waiting === 1 ? '' : 's'} waiting` : '';
  switch (t.state) {
    case 'off':
      return '';
    case 'connecting':
      return 'Team: connecting…';
    case 'syncing':
      return `Team: syncing${waiting ? ` (${waiting})` : '…'}`;
    case 'synced':
      return 'Team: in sync';
    case 'offline':
      return `Team: offline${waiting ? ` (${waiting})` : ''}`;
    case 'signed-out':
      return `Team: sign in${waiting ? ` (${waiting})` : ''}`;
    case 'elsewhere':
      return `Team: synced by another tab${waiting ? ` (${waiting})` : ''}`;
    case 'error':
      return 'Team: stopped';
  }
}

/** To the one whose version lost: which version everyone (they included) sees now. */
function LostVersion({ conflict, user }: { conflict: TeamState['conflicts'][number]; user: string | undefined }) {
  const shown = conflict.versions.find((v) => v.winning);
  if (!shown || !user || shown.author === user || !conflict.versions.some((v) => v.author === user)) return null;
  return (
    <p className="muted" data-testid="team-conflict-lost">
      Your version is not the one shown: everyone, you included, sees {shown.author || 'the other'}’s ({shown.summary}) until someone keeps one.
    </p>
  );
}

/** Server, database, name and password, as a form (the password is kept for this tab only). */
function TeamForm({
  submit,
  label,
  testid,
  busy,
  defaults,
}: {
  submit: (url: string, user: string, password: string) => void;
  label: string;
  testid: string;
  busy: boolean;
  defaults?: { url?: string; user?: string };
}) {
  const [url, setUrl] = useState(defaults?.url ?? '');
  const [user, setUser] = useState(defaults?.user ?? '');
  const [password, setPassword] = useState('');
  return (
    <form
      className="team-form"
      data-testid={testid}
      onSubmit={(e) => {
        e.preventDefault();
        if (url.trim() && user.trim()) submit(url.trim(), user.trim(), password);
      }}
    >
      <label>
        Team database{' '}
        <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:5984/my-benchmark" data-testid="team-url" required />
      </label>
      <label>
        Name <input value={user} onChange={(e) => setUser(e.target.value)} autoComplete="username" data-testid="team-user" required />
      </label>
      <label>
        Password{' '}
        <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" data-testid="team-password" />
      </label>
      <button type="submit" disabled={busy} data-testid={`${testid}-submit`}>
        {label}
      </button>
    </form>
  );
}

/** Joining an existing team database from this browser: it becomes a project of the list. */
export function JoinTeam({ onDone }: { onDone: () => void }) {
  const teamJoin = useCommand('team.join');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (!open)
    return (
      <button className="secondary" onClick={() => setOpen(true)} data-testid="team-join-open">
        Open a team project…
      </button>
    );
  return (
    <div className="team-join">
      <h3>Open a team project</h3>
      <p className="muted">
        A CouchDB database your team's admin created (<code>npm run -s cli -- team create-project</code>). Everything it holds is copied here, then kept in
        sync.
      </p>
      <TeamForm
        label="Open"
        testid="team-join"
        busy={busy}
        submit={(url, user, password) => {
          setBusy(true);
          setProblem(null);
          setProgress('Connecting…');
          void teamJoin(url, user, password, (done, total) => setProgress(`Copying records: ${done} of ${total}`)).then((p) => {
            setBusy(false);
            setProgress(null);
            if (p) setProblem(p);
            else onDone();
          });
        }}
      />
      {progress && (
        <p className="muted" data-testid="team-join-progress">
          {progress}
        </p>
      )}
      {problem && (
        <p className="error" role="alert" data-testid="team-join-problem">
          {problem}
        </p>
      )}
      <button className="small secondary" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </div>
  );
}

/** The open project's team: publish it, its state, sign in or out, conflicts to resolve, records refused. */
export function TeamSection() {
  const t = useStudio((s) => s.team);
  const project = useStudio((s) => s.document.project);
  const teamConnect = useCommand('team.connect');
  const teamDisconnect = useCommand('team.disconnect');
  const teamKeep = useCommand('team.keep');
  const teamSignIn = useCommand('team.signIn');
  const teamSignOut = useCommand('team.signOut');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [password, setPassword] = useState('');
  const [confirmDisconnect, setConfirmDisconnect] = useState(false);
  if (!project) return null;
  if (t.state === 'off') {
    return (
      <section className="team-section" data-testid="team-section">
        <h3>Team</h3>
        <p className="muted" data-testid="team-state">
          “{project.name}” is kept in this browser only.
        </p>
        {publishing ? (
          <TeamForm
            label="Publish and sync"
            testid="team-publish"
            busy={busy}
            submit={(url, user, pw) => {
              setBusy(true);
              setProblem(null);
              void teamConnect(url, user, pw).then((p) => {
                setBusy(false);
                if (p) setProblem(p);
                else setPublishing(false);
              });
            }}
          />
        ) : (
          <button className="secondary" onClick={() => setPublishing(true)} data-testid="team-publish-open">
            Publish to a team database…
          </button>
        )}
        {problem && (
          <p className="error" role="alert" data-testid="team-problem">
            {problem}
          </p>
        )}
      </section>
    );
  }
  return (
    <section className="team-section" data-testid="team-section">
      <h3>Team</h3>
      <p data-testid="team-state" data-state={t.state}>
        <strong>{teamSummary(t)}</strong> — {t.url} as <strong>{t.user}</strong>
        {t.lastSyncAt ? <span className="muted"> · last exchange {new Date(t.lastSyncAt).toLocaleTimeString()}</span> : null}
      </p>
      {t.message && (
        <p
          className={t.state === 'error' || t.state === 'signed-out' ? 'error' : 'muted'}
          role={t.state === 'error' ? 'alert' : undefined}
          data-testid="team-message"
        >
          {t.message}
        </p>
      )}
      {t.state === 'signed-out' && (
        <form
          className="team-form"
          onSubmit={(e) => {
            e.preventDefault();
            void teamSignIn(password);
            setPassword('');
          }}
        >
          <label>
            Password for {t.user}{' '}
            <input
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
              data-testid="team-signin-password"
            />
          </label>
          <button type="submit" data-testid="team-signin">
            Sign in
          </button>
        </form>
      )}
      <div className="project-actions">
        {t.state !== 'signed-out' && (
          <button className="small secondary" onClick={() => teamSignOut()} data-testid="team-signout">
            Sign out
          </button>
        )}
        {confirmDisconnect ? (
          <>
            <span>
              {t.waiting
                ? `${t.waiting} change${t.waiting === 1 ? '' : 's'} made here ha${t.waiting === 1 ? 's' : 've'} not reached the team and never will. `
                : ''}
              Stop syncing this project? Its records stay in this browser.
            </span>
            <button
              className="small danger"
              onClick={() => {
                setConfirmDisconnect(false);
                void teamDisconnect();
              }}
              data-testid="team-disconnect-confirm"
            >
              Stop syncing
            </button>
            <button className="small secondary" onClick={() => setConfirmDisconnect(false)}>
              Keep syncing
            </button>
          </>
        ) : (
          <button className="small secondary" onClick={() => setConfirmDisconnect(true)} data-testid="team-disconnect">
            Stop syncing…
          </button>
        )}
      </div>
      {t.conflicts.length > 0 && (
        <div data-testid="team-conflicts">
          <h4>Conflicting versions ({t.conflicts.length})</h4>
          <p className="muted">Two people changed the same record apart. The first version is the one shown everywhere until someone keeps one.</p>
          <ul>
            {t.conflicts.map((c) => (
              <li key={c.key} data-testid="team-conflict" data-key={c.key}>
                <strong>{c.what}</strong>
                <LostVersion conflict={c} user={t.user} />
                <ul>
                  {c.versions.map((v) => (
                    <li key={v.rev}>
                      {v.summary}{' '}
                      <span className="muted">
                        — {v.author || 'no one named'}
                        {v.at ? `, ${new Date(v.at).toLocaleString()}` : ''}
                        {v.winning ? ' (shown now)' : ''}
                      </span>{' '}
                      <button className="small secondary" data-testid="team-keep" onClick={() => void teamKeep(c.key, v.rev).then((p) => setProblem(p))}>
                        Keep this
                      </button>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      )}
      {t.refused.length > 0 && (
        <div data-testid="team-refused">
          <h4>Refused by the server ({t.refused.length})</h4>
          <ul>
            {t.refused.map((r) => (
              <li key={r.key}>
                <strong>{describeKey(r.key)}</strong>: {r.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {problem && (
        <p className="error" role="alert" data-testid="team-problem">
          {problem}
        </p>
      )}
    </section>
  );
}
