import { useState } from 'react';
import type { Problem } from '../core/problems.ts';

/** Files listed before "Show all": a 1,000-scene release can report problems in hundreds of files. */
const FILES_SHOWN = 40;

/**
 * Problems grouped by file, each with its location; all text is rendered as text. Files with
 * errors come first and open; files with warnings only stay closed, and their problems are drawn
 * when opened. At most FILES_SHOWN files are listed until the user asks for all of them.
 */
export function ProblemList({ problems, testId }: { problems: readonly Problem[]; testId?: string }) {
  const [all, setAll] = useState(false);
  if (!problems.length) return <p className="muted">No problems.</p>;
  const byFile = new Map<string, Problem[]>();
  for (const p of problems) {
    const list = byFile.get(p.file);
    if (list) list.push(p);
    else byFile.set(p.file, [p]);
  }
  const files = [...byFile].map(([file, list]) => ({ file, list, errors: list.some((p) => p.severity !== 'warning') }));
  const ordered = [...files.filter((f) => f.errors), ...files.filter((f) => !f.errors)];
  const shown = all ? ordered : ordered.slice(0, FILES_SHOWN);
  return (
    <div className="problems" data-testid={testId}>
      {shown.map(({ file, list, errors }) => (
        <FileProblems key={file} file={file} list={list} errors={errors} />
      ))}
      {shown.length < ordered.length && (
        <button className="small secondary" onClick={() => setAll(true)} data-testid="problems-show-all">
          Show all {ordered.length} files ({ordered.length - shown.length} more, {count(ordered.slice(shown.length).flatMap((f) => f.list))})
        </button>
      )}
    </div>
  );
}

function FileProblems({ file, list, errors }: { file: string; list: readonly Problem[]; errors: boolean }) {
  const [open, setOpen] = useState(errors);
  return (
    <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <code>{file || '(release)'}</code> <span className="muted">{count(list)}</span>
      </summary>
      {open && (
        <ul>
          {list.map((p, i) => (
            <li key={i} className={`problem ${p.severity}`} data-code={p.code}>
              <span className="sev">{p.severity}</span> {p.location && <code className="loc">{p.location}</code>} {p.message}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

function count(list: readonly Problem[]): string {
  const e = list.filter((p) => p.severity !== 'warning').length;
  const w = list.length - e;
  return [e && `${e} error${e === 1 ? '' : 's'}`, w && `${w} warning${w === 1 ? '' : 's'}`].filter(Boolean).join(', ');
}
