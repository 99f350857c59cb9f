import { transcodeBasis, type BasisRequest, type TranscodedImage } from './basisTranscode.ts';
import { transferList } from './geometryBuffers.ts';
import { parseObj, type ObjParsed } from './objParse.ts';
import { parsePly, type PlyParsed } from './plyParse.ts';
import type { Handled, Handler } from './workerProtocol.ts';

export interface MeshParseRequest {
  format: 'ply' | 'obj';
  file: string;
  data: ArrayBuffer;
}
/** PLY and OBJ files to parse, or a glTF file's raw Basis (GOOGLE_texture_basis) images to transcode. */
export type ParseRequest = MeshParseRequest | BasisRequest;

export type ParseResult = { format: 'ply'; ply: PlyParsed } | { format: 'obj'; obj: ObjParsed } | { format: 'basis'; images: TranscodedImage[] };

/** The parse worker's job (also run on the page when there is no worker). */
export const handleParseRequest: Handler<ParseRequest, ParseResult> = (req, progress) =>
  req.format === 'basis' ? transcodeBasis(req, progress) : parseMesh(req);

/** PLY and OBJ parsing is synchronous: callers that only parse meshes can have the result at once. */
export function parseMesh(req: MeshParseRequest): Handled<ParseResult> {
  if (req.format === 'ply') {
    const ply = parsePly(req.file, req.data);
    return { result: { format: 'ply', ply }, transfer: transferList([ply.geometry]) };
  }
  const obj = parseObj(req.file, req.data);
  return { result: { format: 'obj', obj }, transfer: transferList(obj.parts.map((p) => p.geometry)) };
}
