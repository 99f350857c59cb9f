import { REASON_LABEL } from '../../../core/rules.ts';
import { currentDrive } from '../../labelling/state/queueSelectors.ts';
import { useStudio } from '../../../state/useStudio.ts';
import { useRunCommand } from '../../../ui/commands.ts';

const m = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${x.toFixed(3)} m`);

/** Drive the current agent: buttons for the keys, the verdict with what was measured, and the live readouts. */
export function DrivePanel() {
  const runCommand = useRunCommand();
  const drive = useStudio(currentDrive);
  const hasScan = useStudio((s) => !!s.document.project?.scenes.find((x) => x.id === s.session.sceneId)?.mesh);
  if (!hasScan) return null;
  const planned = drive?.source === 'planner';
  // Where the stop mark is drawn (what the agent met), for whoever reads the panel's data.
  const stop = drive && !drive.reached ? (drive.contact?.point ?? drive.stoppedAt) : null;
  return (
    <div className="drive-panel" data-testid="drive-panel">
      <button className="small" onClick={() => runCommand('drive.auto')} data-testid="drive-auto">
        Drive to the next node <kbd>G</kbd>
      </button>
      {planned && (
        <button className="small secondary" onClick={() => runCommand('drive.replay')} data-testid="drive-replay">
          Replay <kbd>Shift+G</kbd>
        </button>
      )}
      <button className="small secondary" onClick={() => runCommand('drive.spawn')}>
        Place agent <kbd>B</kbd> then ↑ ↓ ← →
      </button>
      {drive && (
        <span
          className="readouts"
          data-testid="drive-readouts"
          data-reached={drive.reached ? 'yes' : 'no'}
          data-reason={drive.reason ?? ''}
          data-stop={stop ? stop.map((v) => v.toFixed(3)).join(',') : ''}
        >
          {drive.agent}:{' '}
          {drive.reached ? (
            <strong data-testid="drive-verdict">reached the next node</strong>
          ) : drive.reason ? (
            <strong className="error" data-testid="drive-contact">
              stopped — {drive.note || REASON_LABEL[drive.reason]}
            </strong>
          ) : drive.contact ? (
            <strong
              className="warn"
              data-testid="drive-touch"
              title="Driving by hand, a wall or furniture touched is where you steered: steer round it, or press G — the planner squares up to doorways and measures them"
            >
              touching — {drive.contact.message} (where you steered, not a finding; G lets the planner decide)
            </strong>
          ) : (
            'driving'
          )}
          {planned && drive.resolution && (
            <span className="muted" title="The planner's resolution: position lattice and heading step; the collider confirmed the motion pose by pose">
              {' '}
              · planned at {drive.resolution}
            </span>
          )}
          {' · '}clear width {m(drive.measured.clearWidthM ?? drive.readouts.clearWidthM)}
          {drive.measured.clearHeightM !== undefined && (
            <>
              {' · '}clear height {m(drive.measured.clearHeightM)}
            </>
          )}
          {drive.source === 'hand' ? (
            <>
              {' · '}last step {m(drive.readouts.lastStepM)}
            </>
          ) : (
            drive.measured.stepHeightM !== undefined && (
              <>
                {' · '}
                {drive.reached ? 'highest step' : 'step'} {m(drive.measured.stepHeightM)}
              </>
            )
          )}
          {' · '}tightest clearance {m(drive.readouts.tightestClearanceM)}
          {drive.doubt && (
            <span className="warn" data-testid="drive-doubt">
              {' '}
              · not settled by the scan: {drive.doubt}
            </span>
          )}
        </span>
      )}
    </div>
  );
}
