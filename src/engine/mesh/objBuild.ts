import { Group, LineBasicMaterial, LineSegments, LoadingManager, Material, Mesh, MeshPhongMaterial, Points, PointsMaterial, type Object3D } from 'three';
import { MTLLoader } from 'three/examples/jsm/loaders/MTLLoader.js';
import { raceAbort } from './errors.ts';
import type { SideFiles } from './files.ts';
import { notPicked, refKind } from './refs.ts';
import { fromBuffers } from './geometryBuffers.ts';
import type { ObjParsed, ObjPart } from './objParse.ts';
import { disposeObject, resources } from './objectStats.ts';
import { SideTextureLoader, dropTextureGaps } from './sideTextures.ts';

export interface ObjBuilt {
  object: Group;
  warnings: string[];
  texturesMs: number;
}

/**
 * Turn parsed OBJ parts into render objects with the materials of the .mtl files the OBJ names,
 * then wait for their textures. Material choice mirrors OBJLoader's (MTL material by `usemtl` name,
 * converted for lines and points; otherwise a Phong default) so results match loading on one thread.
 */
export async function buildObj(
  file: string,
  parsed: ObjParsed,
  sides: SideFiles,
  signal: AbortSignal | undefined,
  onTextures: (done: number, total: number) => void,
): Promise<ObjBuilt> {
  const warnings: string[] = [];
  const creators: MTLLoader.MaterialCreator[] = [];
  const loaders: SideTextureLoader[] = [];
  let done = 0;
  let total = 0;
  const progress = () => onTextures(done, total);

  for (const lib of parsed.materialLibraries) {
    if (refKind(lib) === 'address') {
      warnings.push(`${file}: ${notPicked('mtllib', lib)} (loaded with default materials)`);
      continue;
    }
    const side = sides.find(lib);
    if (!side) {
      warnings.push(`${file}: references ${lib}, which was not provided (loaded with default materials)`);
      continue;
    }
    // One manager per .mtl, so a missing texture is reported against the .mtl that names it.
    const manager = new LoadingManager();
    manager.setURLModifier(sides.modifier);
    const text = await readText(side.data);
    const loader = new SideTextureLoader(
      manager,
      sides,
      (w) => warnings.push(`${side.name}: ${w}`),
      {
        requested: () => {
          total++;
          progress();
        },
        settled: () => {
          done++;
          progress();
        },
      },
      (url) => mtlStatement(text, url),
    );
    manager.addHandler(/[\s\S]*/, loader);
    loaders.push(loader);
    creators.push(new MTLLoader(manager).parse(text, ''));
  }

  // Materials are made (and their images requested) as the objects are built.
  const started = performance.now();
  const group = new Group();
  group.name = file;
  const defaults = new Map<string, Material>();
  for (const part of parsed.parts) group.add(makeObject(part, creators, defaults));

  try {
    await raceAbort(Promise.all(loaders.map((l) => l.allSettled())), signal);
  } catch (err) {
    disposeObject(group);
    throw err;
  }
  const texturesMs = total ? performance.now() - started : 0;
  dropTextureGaps(resources(group).materials);
  return { object: group, warnings, texturesMs };
}

function makeObject(part: ObjPart, creators: MTLLoader.MaterialCreator[], defaults: Map<string, Material>): Object3D {
  const geometry = fromBuffers(part.geometry);
  const materials = part.materials.map((slot) => {
    const creator = creators.find((c) => slot.name in c.materialsInfo);
    if (creator) return forKind(creator.create(slot.name), part.kind);
    const key = `${slot.name}_${slot.flatShading}_${slot.vertexColors}_${part.kind}`;
    let m = defaults.get(key);
    if (!m) {
      m =
        part.kind === 'lines'
          ? new LineBasicMaterial()
          : part.kind === 'points'
            ? new PointsMaterial({ size: 1, sizeAttenuation: false })
            : new MeshPhongMaterial();
      m.name = slot.name;
      if (m instanceof MeshPhongMaterial) m.flatShading = slot.flatShading;
      m.vertexColors = slot.vertexColors;
      defaults.set(key, m);
    }
    return m;
  });
  const material = materials.length > 1 ? materials : (materials[0] ?? new MeshPhongMaterial());
  const object =
    part.kind === 'lines' ? new LineSegments(geometry, material) : part.kind === 'points' ? new Points(geometry, material) : new Mesh(geometry, material);
  object.name = part.name;
  return object;
}

/** MTL only makes Phong materials; lines and points need their own kinds (as OBJLoader does). */
function forKind(m: Material, kind: ObjPart['kind']): Material {
  const phong = m as MeshPhongMaterial;
  if (kind === 'lines') {
    const line = new LineBasicMaterial();
    Material.prototype.copy.call(line, m);
    line.color.copy(phong.color);
    return line;
  }
  if (kind === 'points') {
    const points = new PointsMaterial({ size: 10, sizeAttenuation: false });
    Material.prototype.copy.call(points, m);
    points.color.copy(phong.color);
    points.map = phong.map;
    return points;
  }
  return m;
}

/**
 * Where an .mtl names `url`, for messages: `line 3 (map_Kd)`. MTLLoader hands its texture loader
 * only the URL, which ends the statement's value (after options such as `-s 1 1 1`).
 */
function mtlStatement(text: string, url: string): string {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => l.trim().endsWith(url) && /^\s*\S+\s/.test(l));
  return at < 0 ? 'a texture map' : `line ${at + 1} (${lines[at]!.trim().split(/\s/)[0]})`;
}

async function readText(data: Blob | ArrayBuffer): Promise<string> {
  return data instanceof ArrayBuffer ? new TextDecoder().decode(data) : data.text();
}
