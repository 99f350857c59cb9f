import { describe, expect, it } from 'vitest';
import { modelSettingName, runInputs, type ModelAnswer, type RunDeps } from '../../../../src/core/evalinputs/run.ts';
import { chatContent } from '../../../../src/core/evalinputs/request.ts';
import { VIDEO_MARK, type EvalInput } from '../../../../src/core/evalinputs/types.ts';

const input = (i: number): EvalInput => ({
  format: 'traversa-eval-input',
  version: 1,
  promptVersion: 'p',
  scene: 'S',
  agent: 'HUMAN',
  questionIndex: i,
  questionId: `q${i}`,
  question: `question ${i}`,
  promptFile: '',
  prompt: `prompt ${i}`,
  budget: '16',
  frames: [],
});
const inputs = (n: number) => Array.from({ length: n }, (_, i) => input(i));
const answer = (i: number): ModelAnswer<string> => ({ reading: `answer ${i}`, content: '', usage: { prompt: 10, completion: 2 }, ms: 1 });

function deps(over: Partial<RunDeps<string>> & { cache?: Map<number, ModelAnswer<string>> } = {}): RunDeps<string> & { asked: number[] } {
  const cache = over.cache ?? new Map<number, ModelAnswer<string>>();
  const asked: number[] = [];
  return {
    asked,
    concurrency: 2,
    now: () => 0,
    cached: async (x) => cache.get(x.questionIndex),
    store: async (x, a) => {
      cache.set(x.questionIndex, a);
    },
    ask: async (x) => {
      asked.push(x.questionIndex);
      return answer(x.questionIndex);
    },
    ...over,
  };
}

describe('asking a model every input', () => {
  it('asks what the cache lacks, keeps the outcomes in input order and sums the tokens of the requests made', async () => {
    const cache = new Map([
      [1, answer(1)],
      [3, answer(3)],
    ]);
    const d = deps({ cache });
    const run = await runInputs(inputs(5), d);
    expect(d.asked.sort()).toEqual([0, 2, 4]);
    expect(run.outcomes.map((o) => (o.kind === 'answered' ? [o.answer.reading, o.cached] : o.kind))).toEqual([
      ['answer 0', false],
      ['answer 1', true],
      ['answer 2', false],
      ['answer 3', true],
      ['answer 4', false],
    ]);
    expect(run.progress).toMatchObject({ done: 5, total: 5, cached: 2, requested: 3, failed: 0, tokens: { prompt: 30, completion: 6 } });
    expect(run.stoppedBy).toBeNull();
    expect(cache.size).toBe(5);
  });

  it('stops at a refusal (401): the rest are not asked', async () => {
    const d = deps({ concurrency: 1, ask: async (x) => (x.questionIndex === 1 ? { error: 'HTTP 401: bad key', status: 401 } : answer(x.questionIndex)) });
    const run = await runInputs(inputs(6), d);
    expect(run.stoppedBy).toBe('the endpoint refused a request (HTTP 401: bad key)');
    expect(run.outcomes.map((o) => o.kind)).toEqual(['answered', 'failed', 'skipped', 'skipped', 'skipped', 'skipped']);
  });

  it('stops when the first three requests all fail, but not when one of them got an answer, nor at a 400', async () => {
    const failing = deps({ concurrency: 1, ask: async () => ({ error: 'network error: ECONNREFUSED' }) });
    const run = await runInputs(inputs(10), failing);
    expect(run.stoppedBy).toBe('the first 3 requests all failed (the last: network error: ECONNREFUSED)');
    expect(run.progress).toMatchObject({ done: 3, failed: 3 });

    const oneWorked = deps({ concurrency: 1, ask: async (x) => (x.questionIndex === 1 ? answer(1) : { error: 'HTTP 400: too many images', status: 400 }) });
    const rest = await runInputs(inputs(10), oneWorked);
    expect(rest.stoppedBy).toBeNull();
    expect(rest.progress).toMatchObject({ done: 10, failed: 9, requested: 1 });
  });

  it('stops asking when interrupted', async () => {
    let n = 0;
    const run = await runInputs(
      inputs(10),
      deps({
        concurrency: 1,
        stopped: () => n >= 4,
        ask: async (x) => {
          n++;
          return answer(x.questionIndex);
        },
      }),
    );
    expect(run.stoppedBy).toBe('interrupted');
    expect(run.progress.done).toBe(4);

    // A request the interruption cut short is neither answered nor failed: it is not asked.
    let stop = false;
    const cut = await runInputs(
      inputs(3),
      deps({
        concurrency: 1,
        stopped: () => stop,
        ask: async (x) => (x.questionIndex === 1 ? ((stop = true), { error: 'model cancelled' }) : answer(x.questionIndex)),
      }),
    );
    expect(cut.outcomes.map((o) => o.kind)).toEqual(['answered', 'skipped', 'skipped']);
    expect(cut.progress).toMatchObject({ done: 1, failed: 0 });
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0,
      most = 0;
    const ask = async (x: EvalInput) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
      return answer(x.questionIndex);
    };
    await runInputs(inputs(12), deps({ concurrency: 3, ask }));
    expect(most).toBe(3);
  });

  it('names the results folder after the model and the frame budget, safe as a folder name', () => {
    expect(modelSettingName('gemini-2.5-pro', '64')).toBe('gemini-2.5-pro_64f');
    expect(modelSettingName('Qwen/Qwen2.5-VL-7B-Instruct', '1fps')).toBe('Qwen-Qwen2.5-VL-7B-Instruct_1fps');
    expect(modelSettingName('../evil', '16')).toBe('evil_16f');
  });
});

describe('the frames of an evaluation prompt', () => {
  it('each frame goes where the prompt’s <video> line is, after a caption with its time written as task generation writes it (seconds rounded down)', () => {
    const parts = chatContent(
      {
        prompt: `Watch this.\n${VIDEO_MARK}\nThen answer.`,
        frames: [
          { file: '000.jpg', t: 0 },
          { file: '001.jpg', t: 12.5 },
          { file: '002.jpg', t: 3725.9 },
        ],
      },
      ['a', 'b', 'c'],
    );
    expect(parts.map((p) => (p.type === 'text' ? p.text : `[${p.image_url.url}]`))).toEqual([
      'Watch this.',
      'Frame 1/3 (00:00)',
      '[a]',
      'Frame 2/3 (00:12)',
      '[b]',
      'Frame 3/3 (1:02:05)',
      '[c]',
      'Then answer.',
    ]);
  });
});
