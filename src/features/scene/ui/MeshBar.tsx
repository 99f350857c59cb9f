import { selectedScene } from '../../../state/commands.ts';
import { applyEdit } from '../../../state/edits.ts';
import { SCAN_EDITS } from '../../../state/scanEdits.ts';
import type { MeshStatus } from '../../../state/store.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { useCommand } from '../../../ui/commands.ts';
import { filesFromInput } from '../../../ui/pickedFiles.ts';

const MB = (b: number) => `${(b / 1e6).toFixed(1)} MB`;

/** The scene's scan: load, relink or remove it, its frame (up axis, unit scale), and loading progress. */
export function MeshBar() {
  const store = useStudioStore();
  const scene = useStudio(selectedScene);
  const status = useStudio((s) => (scene ? s.meshes[scene.id] : undefined));
  const attachMesh = useCommand('scan.attach');
  const removeMesh = useCommand('scan.remove');
  if (!scene) return null;
  const binding = scene.mesh;
  const setFrame = (frame: Partial<Pick<NonNullable<typeof binding>, 'upAxis' | 'unitScale'>>) =>
    applyEdit(store, SCAN_EDITS.frame, { sceneId: scene.id, frame });

  return (
    <div className="mesh-bar" data-testid="mesh-bar">
      <label className="button secondary small" title="A .glb/.gltf (with .bin and textures), .ply, or .obj with its .mtl and textures">
        {binding ? 'Replace scan…' : 'Load scan…'}
        <input
          type="file"
          multiple
          hidden
          data-testid="load-mesh"
          accept=".glb,.gltf,.bin,.ply,.obj,.mtl,.png,.jpg,.jpeg,.ktx2,.basis,.webp"
          onChange={(e) => {
            const l = e.currentTarget.files;
            if (l?.length) void attachMesh(scene.id, filesFromInput(l));
            e.currentTarget.value = '';
          }}
        />
      </label>
      {binding && (
        <>
          <span className="mesh-name" title={binding.files.map((f) => `${f.name} (${MB(f.bytes)})`).join('\n')}>
            {binding.mainFile}
          </span>
          <label>
            Up{' '}
            <select value={binding.upAxis} aria-label="Up axis" onChange={(e) => setFrame({ upAxis: e.target.value as 'y' | 'z' })}>
              <option value="y">Y</option>
              <option value="z">Z</option>
            </select>
          </label>
          <label>
            Scale{' '}
            <select value={String(binding.unitScale)} aria-label="Unit scale" onChange={(e) => setFrame({ unitScale: Number(e.target.value) })}>
              <option value="1">m</option>
              <option value="0.01">cm</option>
              <option value="0.001">mm</option>
            </select>
          </label>
          <button className="small secondary" onClick={() => removeMesh(scene.id)}>
            Remove scan
          </button>
        </>
      )}
      <MeshStatusLine status={status} />
      {binding && status?.state === 'ready' && status.upHint && (
        <span className="mesh-status warn" role="status" data-testid="up-hint">
          {status.upHint.text}{' '}
          <button className="small" data-testid="up-fix" onClick={() => setFrame({ upAxis: status.upHint!.axis })}>
            Turn it {status.upHint.axis.toUpperCase()} up
          </button>
        </span>
      )}
    </div>
  );
}

function MeshStatusLine({ status: s }: { status: MeshStatus | undefined }) {
  if (!s) return null;
  if (s.state === 'loading') {
    return (
      <span className="mesh-status loading" role="status">
        <progress max={1} value={s.fraction} aria-label="Loading the scan" data-testid="mesh-progress" /> {s.message}
      </span>
    );
  }
  if (s.state === 'error')
    return (
      <span className="mesh-status error" role="alert" data-testid="mesh-error">
        {s.file}: {s.message}
      </span>
    );
  if (s.state === 'missing')
    return (
      <span className="mesh-status error" role="alert">
        {s.message}
      </span>
    );
  return (
    <span className="mesh-status ready" data-testid="mesh-ready">
      {s.triangles.toLocaleString('en')} triangles · {s.floors.length} floor{s.floors.length === 1 ? '' : 's'}
      {s.warnings.length > 0 && (
        <span className="warn" data-testid="mesh-warnings" title={s.warnings.join('\n')}>
          {' '}
          · {s.warnings.join(' · ')}
        </span>
      )}
      {s.error && (
        <span className="error" role="alert" data-testid="mesh-error">
          {' '}
          · {s.error}
        </span>
      )}
    </span>
  );
}
