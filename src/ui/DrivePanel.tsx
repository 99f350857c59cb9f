import { useStudio } from '../state/useStudio.ts';
import { useActions } from './actions.ts';

const m = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${x.toFixed(3)} m`);

/** Drive the current agent: buttons for the keys, and the live readouts. */
export function DrivePanel() {
  const { runCommand } = useActions();
  const drive = useStudio((s) => s.ephemeral.drive);
  const hasScan = useStudio((s) => !!s.document.project?.scenes.find((x) => x.id === s.session.sceneId)?.mesh);
  if (!hasScan) return null;
  return (
    <div className="drive-panel" data-testid="drive-panel">
      <button className="small" onClick={() => runCommand('drive.auto')} data-testid="drive-auto">Drive to the next node <kbd>G</kbd></button>
      <button className="small secondary" onClick={() => runCommand('drive.spawn')}>Place agent <kbd>B</kbd> then ↑ ↓ ← →</button>
      {drive && (
        <span className="readouts" data-testid="drive-readouts">
          {drive.agent}: {drive.reached ? 'reached the node' : drive.contact ? <strong className="error" data-testid="drive-contact">stopped — {drive.contact.message}</strong> : 'driving'}
          {' · '}clear width {m(drive.measured.clearWidthM ?? drive.readouts.clearWidthM)}
          {' · '}last step {m(drive.measured.stepHeightM ?? drive.readouts.lastStepM)}
          {' · '}tightest clearance {m(drive.readouts.tightestClearanceM)}
        </span>
      )}
    </div>
  );
}
