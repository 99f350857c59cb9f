import { describe, expect, it } from 'vitest';
import { readModelReply } from '../../../../src/formats/predictions/modelReply.ts';

const b1 = (answer: unknown, path: unknown, reason = '', agent = 'HUMANOID') =>
  JSON.stringify([{ question: 'Can HUMANOID move from the hall to the bedroom?', agent, result: { answer, path, reason } }]);

describe("reading a model's reply to the evaluation prompt", () => {
  it('reads the JSON array CapNav B.1 asks for, keeping the answer as written', () => {
    expect(readModelReply(b1('no', ['node_1', 'node_3'], 'Stairs'))).toEqual({
      kind: 'answer',
      form: 'json',
      result: { answer: 'no', path: ['node_1', 'node_3'], reason: 'Stairs' },
    });
    expect(readModelReply(b1('Yes', ['node_1', 'node_3']))).toMatchObject({ result: { answer: 'Yes' } });
    expect(readModelReply(b1(true, ['node_1', 'node_3']))).toMatchObject({ result: { answer: true } });
  });

  it('reads it inside a fence, after a <think> block, or among prose', () => {
    const want = { kind: 'answer', form: 'json', result: { answer: 'yes', path: ['node_1', 'node_3', 'node_8'], reason: '' } };
    const json = b1('yes', ['node_1', 'node_3', 'node_8']);
    expect(readModelReply('```json\n' + json + '\n```')).toEqual(want);
    expect(readModelReply('```\n' + json + '```')).toEqual(want);
    expect(readModelReply('<think>Maybe {"answer": "no"}? The stairs [node_5] look shallow.</think>\n' + json)).toEqual(want);
    expect(readModelReply(`Looking at frames 3-5 (the {stairs}), I conclude:\n${json}\nLet me know if you need more.`)).toEqual(want);
  });

  it('reads one object, the bare result, a string path and a free-text result', () => {
    expect(readModelReply('{"question": "…", "agent": "HUMAN", "result": {"answer": "no", "path": "node_2 -> node_3", "reason": "door"}}')).toMatchObject({
      result: { answer: 'no', path: ['node_2', 'node_3'], reason: 'door' },
    });
    expect(readModelReply('{"answer": "yes", "path": ["Kitchen", "Living room"]}')).toMatchObject({
      result: { answer: 'yes', path: ['Kitchen', 'Living room'], reason: '' },
    });
    expect(readModelReply('[{"agent": "HUMAN", "result": "Answer: (A) True | Path: node_1 -> node_2"}]')).toMatchObject({
      result: { answer: 'yes', path: ['node_1', 'node_2'] },
    });
  });

  it('reads the older one-line form, its (A)/(B) as yes/no', () => {
    expect(readModelReply('Answer: (B) False | Path: node_2 -> node_3 | Reason: the passage is too narrow')).toEqual({
      kind: 'answer',
      form: 'free-text',
      result: { answer: 'no', path: ['node_2', 'node_3'], reason: 'the passage is too narrow' },
    });
    expect(readModelReply('Answer: (A) True\n| Path: node_1 → node_3')).toMatchObject({ result: { answer: 'yes', path: ['node_1', 'node_3'] } });
    // An answer it cannot tell is kept as written, for the scorers to judge.
    expect(readModelReply('Answer: probably | Path: node_1 -> node_3')).toMatchObject({ result: { answer: 'probably' } });
  });

  it('calls unreadable a reply with no answer in it: empty, prose, JSON without an answer, a null answer', () => {
    for (const reply of [
      '',
      '   ',
      '<think>hmm</think>',
      'I cannot tell from these frames.',
      'Yes, the agent can get there.',
      '{"path": ["node_1"]}',
      b1(null, ['node_1']),
      '[]',
      '[{"answer": ""}]',
      '{"answer": 1}',
      '```json\n[{"answer": "yes", "path": ["node_1"]\n```',
    ]) {
      expect(readModelReply(reply).kind, reply).toBe('unreadable');
    }
  });

  it('reads a reply of many brackets quickly (no quadratic scan)', () => {
    const reply = '['.repeat(200_000) + ' no answer here';
    const t0 = performance.now();
    expect(readModelReply(reply).kind).toBe('unreadable');
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
