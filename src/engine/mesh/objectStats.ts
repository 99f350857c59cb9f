import { InstancedMesh, Mesh, type BufferGeometry, type Material, type Object3D, type Texture } from 'three';

/** Geometries, materials and textures under `root`, each once however often it is shared. */
export function resources(root: Object3D): { geometries: Set<BufferGeometry>; materials: Set<Material>; textures: Set<Texture> } {
  const geometries = new Set<BufferGeometry>();
  const materials = new Set<Material>();
  const textures = new Set<Texture>();
  root.traverse((o) => {
    const r = o as Object3D & { geometry?: BufferGeometry; material?: Material | Material[] };
    if (r.geometry) geometries.add(r.geometry);
    const list = Array.isArray(r.material) ? r.material : r.material ? [r.material] : [];
    for (const m of list) {
      materials.add(m);
      for (const value of Object.values(m)) if (value && (value as Texture).isTexture) textures.add(value as Texture);
    }
  });
  return { geometries, materials, textures };
}

export function objectStats(root: Object3D): { triangles: number; vertices: number; textures: number } {
  let triangles = 0;
  let vertices = 0;
  root.traverse((o) => {
    if (!(o instanceof Mesh)) return;
    const g = o.geometry;
    const position = g.getAttribute('position');
    if (!position) return;
    const copies = o instanceof InstancedMesh ? o.count : 1;
    const drawn = Math.min(g.getIndex()?.count ?? position.count, g.drawRange.count);
    triangles += Math.floor(drawn / 3) * copies;
    vertices += position.count;
  });
  return { triangles, vertices, textures: resources(root).textures.size };
}

export function disposeTexture(t: Texture): void {
  t.dispose();
  // Decoded ImageBitmaps hold memory until closed; three leaves that to the owner.
  const image = t.image as { close?: () => void } | null | undefined;
  if (typeof ImageBitmap !== 'undefined' && image instanceof ImageBitmap) image.close?.();
}

/** Free everything under `root`, except what `keep` still uses. */
export function disposeObject(root: Object3D, keep?: Object3D): void {
  const gone = resources(root);
  const kept = keep ? resources(keep) : null;
  for (const g of gone.geometries)
    if (!kept?.geometries.has(g)) {
      g.boundsTree = undefined;
      g.dispose();
    }
  for (const m of gone.materials) if (!kept?.materials.has(m)) m.dispose();
  for (const t of gone.textures) if (!kept?.textures.has(t)) disposeTexture(t);
}
