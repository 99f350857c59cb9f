import type { ArgCommandsOf } from '../../../state/commandIds.ts';
import type { MeshManager } from '../../../services/meshManager.ts';
import type { PickedFile } from '../../../ui/pickedFiles.ts';

declare module '../../../state/commandIds.ts' {
  interface ArgCommands {
    /** Load a scan (main file plus side files) for a scene; nothing changes if it cannot be read. */
    'scan.attach': (sceneId: string, files: PickedFile[]) => Promise<boolean>;
    /** Forget a scene's scan (its stored files are deleted once nothing refers to them). */
    'scan.remove': (sceneId: string) => void;
  }
}

export function scanArgCommands(meshes: MeshManager): ArgCommandsOf<'scan'> {
  return {
    'scan.attach': (sceneId, files) => meshes.attach(sceneId, files),
    'scan.remove': (sceneId) => meshes.remove(sceneId),
  };
}
