import type { Problem } from '../core/problems.ts';

/** Problems grouped by file, each with its location; all text is rendered as text. */
export function ProblemList({ problems, testId }: { problems: readonly Problem[]; testId?: string }) {
  if (!problems.length) return <p className="muted">No problems.</p>;
  const byFile = new Map<string, Problem[]>();
  for (const p of problems) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  return (
    <div className="problems" data-testid={testId}>
      {[...byFile].map(([file, list]) => (
        <details key={file} open={list.some((p) => p.severity !== 'warning')}>
          <summary><code>{file || '(release)'}</code> <span className="muted">{count(list)}</span></summary>
          <ul>
            {list.map((p, i) => (
              <li key={i} className={`problem ${p.severity}`} data-code={p.code}>
                <span className="sev">{p.severity}</span> {p.location && <code className="loc">{p.location}</code>} {p.message}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

function count(list: readonly Problem[]): string {
  const e = list.filter((p) => p.severity !== 'warning').length;
  const w = list.length - e;
  return [e && `${e} error${e === 1 ? '' : 's'}`, w && `${w} warning${w === 1 ? '' : 's'}`].filter(Boolean).join(', ');
}
