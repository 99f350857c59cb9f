import { isEnabled, type Command } from '../state/commands.ts';
import type { StudioState } from '../state/store.ts';

/** Does a keyboard event match a shortcut like `Mod+Shift+Z`, `J` or `?`. */
export function matches(shortcut: string, e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  const parts = shortcut.split('+');
  const key = parts.pop()!;
  const mod = parts.includes('Mod'),
    shift = parts.includes('Shift');
  if (mod !== (e.ctrlKey || e.metaKey) || e.altKey) return false;
  if (key.length === 1 && /[A-Z]/.test(key)) return shift === e.shiftKey && e.key.toUpperCase() === key;
  return e.key === key && (key === '?' || shift === e.shiftKey);
}

const typingIn = (t: EventTarget | null) =>
  typeof HTMLElement !== 'undefined' && t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

/**
 * The command a key press should run: the first ENABLED command bound to the key (the same key
 * can mean different things in different views); while the user is typing in a field, only a
 * command marked `inFields`; while the shortcuts list is open, only the list's own (`inHelp`):
 * nothing acts behind it.
 */
export function commandForKey(
  commands: readonly Command[],
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'target'>,
  state: StudioState,
): Command | undefined {
  const typing = typingIn(e.target);
  const help = state.ephemeral.helpOpen,
    projects = state.ephemeral.projectsOpen;
  return commands.find(
    (c) => c.shortcut && (!typing || c.inFields) && (!help || c.inHelp) && (!projects || c.inProjects) && matches(c.shortcut, e) && isEnabled(c, state),
  );
}

/** Leave the field a key was typed in (committing it) before its command runs. */
export function leaveField(e: KeyboardEvent): void {
  if (typingIn(e.target) && e.target instanceof HTMLElement) e.target.blur();
}

export function displayShortcut(s: string): string {
  const mac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
  return s.replace('Mod', mac ? '⌘' : 'Ctrl');
}
