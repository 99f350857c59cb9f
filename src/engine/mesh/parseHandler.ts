import { transferList } from './geometryBuffers.ts';
import { parseObj, type ObjParsed } from './objParse.ts';
import { parsePly, type PlyParsed } from './plyParse.ts';
import type { Handler } from './workerProtocol.ts';

export interface ParseRequest { format: 'ply' | 'obj'; file: string; data: ArrayBuffer }

export type ParseResult = { format: 'ply'; ply: PlyParsed } | { format: 'obj'; obj: ObjParsed };

/** The parse worker's job (also run on the page when there is no worker). */
export const handleParseRequest: Handler<ParseRequest, ParseResult> = (req) => {
  if (req.format === 'ply') {
    const ply = parsePly(req.file, req.data);
    return { result: { format: 'ply', ply }, transfer: transferList([ply.geometry]) };
  }
  const obj = parseObj(req.file, req.data);
  return { result: { format: 'obj', obj }, transfer: transferList(obj.parts.map((p) => p.geometry)) };
};
