import type { AgentProfile } from '../agents.ts';
import type { NavGraph } from '../graph.ts';
import { VIDEO_MARK } from './types.ts';

/**
 * The evaluation prompt of CapNav appendix B.1 (instruction, question, agent profile, node list,
 * video, task and answer format), worded as the paper prints it so that scores stay comparable
 * with the published ones. Bump PROMPT_VERSION whenever a word of it changes: run-model's cache
 * and results name it, so answers to different prompts are never mixed.
 */
export const PROMPT_VERSION = 'capnav-eval-1';

const INSTRUCTION = `Instruction:

You are an expert visual reasoning agent for indoor navigation tasks. You will receive four materials:

1. A video showing the indoor environment.
2. A single navigation question asking whether the agent can move from one area (node) to another.
3. The agent's physical and capability profile.
4. The list of all nodes in this environment, with their textual descriptions (e.g., room type, furniture, width of passages).

Your goal is to determine whether the agent can successfully reach the destination area from the starting area, based on both the video and the textual descriptions. You must reason step by step about spatial constraints, obstacles, connectivity, and the agent's mobility limitations.`;

const TASK = `Task:

Your goal is to determine whether the agent can **navigate** from the start area to the goal area.

Focus exclusively on **movement feasibility**, considering physical dimensions, obstacle heights, and connection constraints.

You must **not stop after a single failed route attempt**. If one possible route is blocked (e.g., by stairs or narrow spaces), you must **actively consider all other possible paths** between the start and goal nodes in the scene graph.

Follow these principles:

1. Explore **all possible routes** through the scene graph before deciding the task is impossible. That means, try **multiple alternative routes** using all visible connections in the scene graph until you are confident that **no feasible route** exists.
2. Account for the agent's capabilities (e.g., door opening, elevator operation, stair traversal) when evaluating possible paths.
3. When multiple feasible paths exist, select the **most direct and realistic one** given the agent's capabilities.
4. If no route works, specify which **edge or physical barrier** prevents traversal and explain why.
5. If a feasible route exists, specify the **sequence of nodes** representing the navigable path.

Important:

If you initially find the route impossible, **re-examine the scene graph** and attempt at least two distinct alternative paths before concluding "no".

Your reasoning should reflect persistent exploration: do not assume failure after one obstacle; explore until all logical alternatives are ruled out.

You do not need to consider unrelated interactions (e.g., turning on lights, using computers, or touching furniture).

Please decide for each given question whether the agent can complete the navigation task.

If yes, provide a **feasible path** through the relevant nodes.

If no, specify the **edge (two connected nodes)** that blocks traversal and give a concise **reason** (e.g., too narrow passage, stairs, or closed door).

Your reasoning should always consider the agent's physical capabilities mentioned in the Agent profile (e.g., wheelchair cannot climb stairs, sweeper robot cannot open doors).

Return your answer in the required structured JSON format below.`;

/** The answer format, with the question and agent of this prompt filled in. */
function outputFormat(question: string, agent: string): string {
  // B.1's example answer, with this prompt's question and agent.
  const example = JSON.stringify(
    [{ question, agent, result: { answer: 'no', path: ['node_12', 'node_14', 'node_15'], reason: 'Too narrow passage between the sofa and wall' } }],
    null,
    2,
  );
  return `Output Format (JSON only):

\`\`\`
${example}
\`\`\`

Return only the JSON array, no explanation, commentary, or markdown formatting.`;
}

/** A number as the profile file's Python writer prints it (`1.0`, `0.013`). */
const pyNumber = (x: number) => (Number.isInteger(x) ? x.toFixed(1) : String(x));
const pyBool = (b: boolean) => (b ? 'True' : 'False');

/** The agent profile as B.1 lists it, one `Field: value` line per field of agent_profile.json. */
export function profileText(p: AgentProfile): string {
  const lines = [
    `Agent name: ${p.name}`,
    `Body shape: ${p.shape}`,
    `Height (m): ${pyNumber(p.heightM)}`,
    `Width (m): ${pyNumber(p.widthM)}`,
    `Depth (m): ${p.depthM === null ? 'None' : pyNumber(p.depthM)}`,
    `Max vertical cross height (m): ${pyNumber(p.maxStepM)}`,
    `Can go up or down stairs: ${pyBool(p.canUseStairs)}`,
    `Can operate elevator: ${pyBool(p.canUseElevator)}`,
    `Can open the door: ${pyBool(p.canOpenDoors)}`,
  ];
  if (p.turningSpaceM !== null) lines.push(`Turning space (m): ${pyNumber(p.turningSpaceM)}`);
  lines.push(`Description: ${p.description.trim()}`);
  return lines.join('\n');
}

/** `node_117 - Master bedroom foyer`, one line per node in graph order; a node's description follows its name. */
export function nodeListText(graph: Pick<NavGraph, 'nodes'>): string {
  return graph.nodes
    .map((n) => {
      const description = n.description.trim();
      return `${n.id} - ${n.name.trim()}${description ? ` (${description})` : ''}`;
    })
    .join('\n');
}

/** The question with `[Agent]` (any case) replaced by the agent's name. */
export const questionFor = (text: string, agent: string) => text.replace(/\[agent\]/gi, agent);

export interface PromptParts {
  question: string;
  profile: AgentProfile;
  graph: Pick<NavGraph, 'nodes'>;
  /** How many frames stand for the video; null: the video itself is given (a training export's video reference). */
  frameCount: number | null;
  /** Input sections added after the video (the spatial information of `eval-inputs --with graph`); none in B.1. */
  added?: readonly string[];
}

const videoIs = (frames: number | null) =>
  frames === null
    ? ''
    : `The video is given as ${frames} frame${frames === 1 ? '' : 's'} sampled uniformly from the tour, in order; each frame follows its time in the video (mm:ss).\n\n`;

/** The whole prompt; the line VIDEO_MARK stands where the frames (or the video) go. */
export function evalPrompt({ question, profile, graph, frameCount, added = [] }: PromptParts): string {
  const asked = questionFor(question, profile.name);
  return [
    INSTRUCTION,
    'Input:',
    `1.Navigation Question:\n\n${asked}`,
    `2.Agent Profile (${profile.name}):\n\n\`\`\`\n${profileText(profile)}\n\`\`\``,
    `3.Scene Node List:\n\n\`\`\`\n${nodeListText(graph)}\n\`\`\``,
    `4.Video\n\n(You can observe the video for spatial layout and obstacles.)\n\n${videoIs(frameCount)}${VIDEO_MARK}`,
    ...added,
    TASK,
    outputFormat(asked, profile.name),
  ].join('\n\n');
}
