import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { traversaWith } from '../support/cli.ts';
import { startFakeChat } from '../support/fakeChat.ts';
import { tinyJpeg } from '../support/frameSets.ts';
import { HOUSE, houseRelease, scriptedReply } from '../support/modelRun.ts';
import { Q } from '../support/releaseBuilder.ts';

const made: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const cli = (...args: string[]) => traversaWith({ limitMs: 120_000, env: { TRAVERSA_VLM_RETRY_MS: '1' } }, ...args);
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const f = join(d, n);
      if (statSync(f).isDirectory()) walk(f);
      else out.push(relative(dir, f));
    }
  };
  walk(dir);
  return out;
}

describe('eval-inputs: the evaluation prompt of every question × agent, with its frames', { timeout: 60_000 }, () => {
  it('writes the documented layout: a manifest, one input per question × agent (hallucinated questions left out), the frames copied', async () => {
    const gt = houseRelease();
    const out = temp('traversa-evalinputs-');
    const r = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`wrote 10 evaluation inputs (2 questions × 5 agents, 1 scene; 1 hallucinated question left out) and 4 frames to ${out}`);

    const agents = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'];
    const inputs = agents.flatMap((a) => [`inputs/${HOUSE}/${a}/q01.json`, `inputs/${HOUSE}/${a}/q02.json`]);
    expect(tree(out)).toEqual([
      ...['000', '001', '002', '003'].map((f) => `frames/${HOUSE}/16/${f}.jpg`),
      `frames/${HOUSE}/16/frames.json`,
      ...inputs.slice().sort(),
      'manifest.json',
    ]);
    expect(readFileSync(join(out, 'frames', HOUSE, '16', '002.jpg'))).toEqual(readFileSync(join(gt, 'frames', HOUSE, '16', '002.jpg')));
    const manifest = json(join(out, 'manifest.json'));
    expect(manifest).toEqual({
      format: 'traversa-eval-inputs',
      version: 1,
      promptVersion: 'capnav-eval-1',
      budget: '16',
      inputs,
      excluded: [{ scene: HOUSE, questionIndex: 2, question: Q.garage, reason: 'hallucinated' }],
      counts: { scenes: 1, agents: 5, questions: 2, inputs: 10, excludedHallucinated: 1 },
    });

    const input = json(join(out, `inputs/${HOUSE}/HUMANOID/q01.json`));
    expect(input).toMatchObject({
      format: 'traversa-eval-input',
      version: 1,
      promptVersion: 'capnav-eval-1',
      scene: HOUSE,
      agent: 'HUMANOID',
      questionIndex: 0,
      questionId: 'q0',
      question: Q.hallToBedroom,
      promptFile: `${HOUSE}_q01_HUMANOID.txt`,
      budget: '16',
      frames: [0, 1, 2, 3].map((i) => ({ file: `frames/${HOUSE}/16/00${i}.jpg`, t: i * 0.5 })),
    });
    const prompt: string = input.prompt;
    // B.1's parts in B.1's order, the agent's name in the question, its profile, every node, the frames' place.
    const at = (s: string) => {
      const i = prompt.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    const order = [
      at('Instruction:\n\nYou are an expert visual reasoning agent for indoor navigation tasks.'),
      at('1.Navigation Question:\n\nCan HUMANOID move from the front hall to the master bedroom?'),
      at(
        '2.Agent Profile (HUMANOID):\n\n```\nAgent name: HUMANOID\nBody shape: box\nHeight (m): 1.5\nWidth (m): 0.9\nDepth (m): 0.9\n' +
          'Max vertical cross height (m): 0.4\nCan go up or down stairs: False\nCan operate elevator: True\nCan open the door: True\nDescription: HUMANOID profile\n```',
      ),
      at(
        '3.Scene Node List:\n\n```\nnode_1 - Front hall\nnode_2 - Kitchen\nnode_3 - Living room\nnode_5 - Stair landing\nnode_12 - Hall - upstairs\nnode_8 - Master bedroom\n```',
      ),
      at('4.Video\n\n(You can observe the video for spatial layout and obstacles.)\n\nThe video is given as 4 frames sampled uniformly'),
      at('\n<video>\n'),
      at('Task:\n\nYour goal is to determine whether the agent can **navigate** from the start area to the goal area.'),
      at('Output Format (JSON only):'),
      at('Return only the JSON array, no explanation, commentary, or markdown formatting.'),
    ];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt).not.toContain('[Agent]');
    expect(prompt).not.toContain('garage');
    // A cylinder has no depth; its profile says so as the profile file's writer does.
    expect(json(join(out, `inputs/${HOUSE}/SWEEPER/q02.json`)).prompt).toContain(
      'Agent name: SWEEPER\nBody shape: cylinder\nHeight (m): 0.15\nWidth (m): 0.4\nDepth (m): None\n',
    );
  });

  it('only the agents and scenes asked for; an unknown one, a missing budget or no frames is refused', async () => {
    const gt = houseRelease();
    const out = temp('traversa-evalinputs-some-');
    const r = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', out, '--agents', 'wheelchair', '--agents', 'ROBOT');
    expect(r.code).toBe(0);
    expect(json(join(out, 'manifest.json')).inputs).toEqual([
      `inputs/${HOUSE}/WHEELCHAIR/q01.json`,
      `inputs/${HOUSE}/WHEELCHAIR/q02.json`,
      `inputs/${HOUSE}/HUMANOID/q01.json`,
      `inputs/${HOUSE}/HUMANOID/q02.json`,
    ]);
    const bad = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', temp('traversa-evalinputs-bad-'), '--scenes', 'MP3D00001');
    expect([bad.code, bad.stderr.trim()]).toEqual([2, 'traversa: scene "MP3D00001" is not in the release']);
    const noBudget = await cli('eval-inputs', '--gt', gt, '--out', temp('traversa-evalinputs-bad-'));
    expect([noBudget.code, noBudget.stderr.trim()]).toEqual([2, 'traversa: eval-inputs needs --frames 16|32|64|1fps (the frame set each prompt shows)']);
    const other = await cli('eval-inputs', '--gt', gt, '--frames', '64', '--out', temp('traversa-evalinputs-bad-'));
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`no frame set at budget 64 for 1 scene (${HOUSE})`);
    writeFileSync(join(gt, 'frames', HOUSE, '16', '001.jpg'), 'not a picture');
    const notJpeg = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', temp('traversa-evalinputs-bad-'));
    expect([notJpeg.code, notJpeg.stderr.trim()]).toEqual([1, `traversa: ${join(gt, 'frames', HOUSE, '16', '001.jpg')}: the frame is not a JPEG image`]);
    writeFileSync(join(gt, 'frames', HOUSE, '16', 'frames.json'), JSON.stringify([{ file: '../../../../etc/passwd', index: 0, t: 0 }]));
    const escape = await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', temp('traversa-evalinputs-bad-'));
    expect([escape.code, escape.stderr.trim()]).toEqual([
      1,
      `traversa: ${join(gt, 'frames', HOUSE, '16', 'frames.json')}: at /0/file: the frame's file name contains a folder separator (/ or \\)`,
    ]);
  });

  it('run-model runs an export (--inputs) as it runs the release: the same requests, the same results', async () => {
    const gt = houseRelease();
    const exported = temp('traversa-evalinputs-run-');
    expect((await cli('eval-inputs', '--gt', gt, '--frames', '16', '--out', exported)).code).toBe(0);
    const chat = await startFakeChat({ reply: scriptedReply });
    try {
      const fromRelease = temp('traversa-evalinputs-a-'),
        fromExport = temp('traversa-evalinputs-b-');
      const common = ['--endpoint', chat.url, '--model', 'fake-vlm', '--concurrency', '1'];
      expect((await cli('run-model', '--gt', gt, '--frames', '16', '--out', fromRelease, ...common)).code).toBe(0);
      expect((await cli('run-model', '--inputs', exported, '--out', fromExport, ...common)).code).toBe(0);
      expect(chat.requests).toHaveLength(20);
      expect(chat.requests.slice(10).map((r) => r.body)).toEqual(chat.requests.slice(0, 10).map((r) => r.body));
      const results = (dir: string) => readdirSync(join(dir, 'fake-vlm_16f', HOUSE)).map((f) => readFileSync(join(dir, 'fake-vlm_16f', HOUSE, f), 'utf8'));
      expect(results(fromExport)).toEqual(results(fromRelease));

      // An edited frame is another prompt: asked again, not answered from the cache.
      writeFileSync(join(exported, 'frames', HOUSE, '16', '000.jpg'), tinyJpeg('a different first frame'));
      expect((await cli('run-model', '--inputs', exported, '--out', fromExport, ...common, '--limit', '1')).code).toBe(0);
      expect(chat.requests).toHaveLength(21);
      // --frames must agree with the export's.
      const wrong = await cli('run-model', '--inputs', exported, '--frames', '32', '--out', fromExport, ...common);
      expect([wrong.code, wrong.stderr.trim()]).toEqual([2, `traversa: --frames 32: the inputs in ${exported} were exported with the frame set 16`]);
      // An input is checked before it is asked: its agent and scene become file names, its frames paths under the export.
      const edited = join(exported, `inputs/${HOUSE}/HUMAN/q01.json`);
      writeFileSync(edited, JSON.stringify({ ...json(edited), agent: '../../elsewhere' }));
      const unsafe = await cli('run-model', '--inputs', exported, '--out', fromExport, ...common);
      expect([unsafe.code, unsafe.stderr.trim()]).toEqual([
        1,
        `traversa: ${edited}: at /agent: becomes part of a file name and contains a folder separator (/ or \\)`,
      ]);
      writeFileSync(edited, JSON.stringify({ ...json(edited), agent: 'HUMAN', frames: [{ file: '../../etc/passwd', t: 0 }] }));
      const outside = await cli('run-model', '--inputs', exported, '--out', fromExport, ...common);
      expect([outside.code, outside.stderr.trim()]).toEqual([
        1,
        `traversa: ${edited}: at /frames/0/file: a frame path has a ".." segment, which leads out of its folder`,
      ]);
      expect(chat.requests).toHaveLength(21);
    } finally {
      await chat.close();
    }
  });
});
