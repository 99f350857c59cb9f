import type { Links, TrailStep } from '../../../core/vqa/item.ts';
import { summariseTrailDiff, trailDiff, type Segment } from '../../../core/vqa/trail.ts';

export const Words = ({ segments }: { segments: Segment[] }) => (
  <>
    {segments.map((s, i) =>
      s.kind === 'same' ? <span key={i}>{s.text}</span> : s.kind === 'added' ? <ins key={i}>{s.text}</ins> : <del key={i}>{s.text}</del>,
    )}
  </>
);

const linkList = (l: Links) => (Object.entries(l) as [keyof Links, string[]][]).flatMap(([k, ids]) => ids.map((id) => `${k.slice(0, -1)} ${id}`)).join(', ');

/**
 * What a person changed in a trail, step by step and word by word (user text shown as text):
 * against the generator's trail, or (`since`) against the trail reviewers last saw.
 */
export function TrailDiffView({ generated, current, since = 'as generated' }: { generated: TrailStep[]; current: TrailStep[]; since?: string }) {
  const diff = trailDiff(generated, current);
  const sum = summariseTrailDiff(diff);
  const parts = [
    sum.added && `${sum.added} added`,
    sum.removed && `${sum.removed} removed`,
    sum.changed && `${sum.changed} changed`,
    sum.moved && `${sum.moved} moved`,
  ].filter(Boolean);
  return (
    <div className="trail-diff" data-testid="trail-diff">
      <p className="muted" data-testid="trail-diff-summary">
        {parts.length ? `Steps: ${parts.join(', ')}` : `The trail is ${since}.`}
      </p>
      <ol>
        {diff.map((d, i) => (
          <li key={i} className={`diff-step ${d.kind}`} data-diff={d.kind}>
            <span className="badge">
              {d.kind}
              {'moved' in d && d.moved ? ', moved' : ''}
            </span>{' '}
            {d.kind === 'changed' ? (
              <>
                <strong>
                  <Words segments={d.title} />
                </strong>
                {d.kindChange && (
                  <em>
                    {' '}
                    ({d.kindChange.from} → {d.kindChange.to})
                  </em>
                )}
                : <Words segments={d.text} />
                {linkList(d.linksAdded) && <span className="muted"> · linked {linkList(d.linksAdded)}</span>}
                {linkList(d.linksRemoved) && <span className="muted"> · unlinked {linkList(d.linksRemoved)}</span>}
              </>
            ) : d.kind === 'removed' ? (
              <del>
                <strong>{d.step.title}</strong> {d.step.text}
              </del>
            ) : d.kind === 'added' ? (
              <ins>
                <strong>{d.step.title}</strong> {d.step.text}
              </ins>
            ) : (
              <span>
                <strong>{d.step.title}</strong> {d.step.text}
              </span>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
