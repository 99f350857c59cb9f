import { selectedScene } from '../../../state/commands.ts';
import { useStudio } from '../../../state/useStudio.ts';
import { Workspace } from '../../../viewport/Workspace.tsx';
import { AgreementPanel } from './AgreementPanel.tsx';
import { ConflictsPanel } from '../../team/ui/ConflictsPanel.tsx';
import { DrivePanel } from '../../drive/ui/DrivePanel.tsx';
import { QueuePanel } from './QueuePanel.tsx';
import { TeamPanel } from '../../team/ui/TeamPanel.tsx';
import { Toolbar } from '../../../ui/Toolbar.tsx';

/** Labelling: the route and the current segment in 3D beside the queue. */
export function LabelView() {
  const scene = useStudio(selectedScene);
  if (!scene) return <p className="empty">Choose a scene on the left.</p>;
  return (
    <section className="scene label-view" aria-labelledby="label-title">
      <header className="scene-header">
        <h2 id="label-title">Label {scene.id}</h2>
        <span className="muted">
          Y traversable · X not (reason S P W R D E Q, note /) · Enter accepts the suggestion · G drive · B then arrows drive by hand · , . segment · [ ]
          question · A agent · U next unlabelled · H hallucinated · ? all keys
        </span>
      </header>
      <Toolbar tools={false} />
      <div className="scene-body">
        <div className="viewport-panel">
          <Workspace />
          <DrivePanel />
        </div>
        <aside className="side-panel">
          <QueuePanel />
          <ConflictsPanel />
          <TeamPanel />
          <AgreementPanel />
        </aside>
      </div>
    </section>
  );
}
