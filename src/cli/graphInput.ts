import { basename } from 'node:path';
import { formatProblem } from '../core/problems.ts';
import { readRelease } from '../formats/capnav/read.ts';
import { InputError, readInputText } from './files.ts';

/** The graph (and profiles) through the release reader, so they are validated as an import is. */
export function readInputs(graphPath: string, agentsPath: string | undefined) {
  const graphAlias = /-graph\.json$/i.test(basename(graphPath)) ? basename(graphPath) : 'suggest-graph.json';
  const files = [{ path: `graphs/${graphAlias}`, text: readInputText(graphPath, 'graph') }];
  if (agentsPath) files.push({ path: 'agent_profile.json', text: readInputText(agentsPath, 'agent profiles') });
  const { project, problems } = readRelease(files);
  const realName = (p: string) => (p.endsWith(graphAlias) ? graphPath : p === 'agent_profile.json' && agentsPath ? agentsPath : p);
  const shown = problems.filter((p) => p.code !== 'scene.no-questions' && p.code !== 'scene.no-labels');
  for (const p of shown) process.stderr.write(formatProblem({ ...p, file: realName(p.file) }) + '\n');
  const scene = project?.scenes[0];
  if (!project || !scene) throw new InputError(`${graphPath} cannot be read as a navigation graph`);
  return { graph: scene.graph, profiles: project.profiles, problems: shown };
}
