import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { exportedNotice, releaseZip } from '../../../../src/services/exportRelease.ts';
import { checkScene } from '../../../../src/core/checks.ts';
import type { NavNode } from '../../../../src/core/graph.ts';
import { emptyProject, type Project } from '../../../../src/core/project.ts';
import { PROMPT_VERSION, TASK_GUIDELINE } from '../../../../src/core/taskgen/guideline.ts';
import { insertTasks, runLabel } from '../../../../src/core/taskgen/insert.ts';
import { withoutUnreviewedTasks } from '../../../../src/core/taskgen/unreviewed.ts';
import { readRelease } from '../../../../src/formats/capnav/read.ts';
import { buildTaskPrompt, nodeListText } from '../../../../src/core/taskgen/prompt.ts';
import { checkTaskReply, problemText } from '../../../../src/core/taskgen/reply.ts';
import { syncHallucination } from '../../../../src/core/vqa/hallucination.ts';
import type { Provenance, QaItem } from '../../../../src/core/vqa/item.ts';
import { scopeOptions, sourceKey, batchKey } from '../../../../src/core/vqa/itemFilters.ts';
import { addReview } from '../../../../src/core/vqa/review.ts';
import { checkQaItems } from '../../../../src/core/vqa/checks.ts';
import { capnavItemsForScene } from '../../../../src/core/vqa/capnav.ts';
import { navEdges, ref, sceneOf } from '../../../support/sceneBuilder.ts';

const node = (id: string, name: string, description = ''): NavNode => ({
  id,
  name,
  description,
  position: { x: Number(id.slice(5)), y: 0, z: 0 },
  floor: null,
});
const NODES = [
  node('node_1', 'Entrance hall', 'Ground floor hub'),
  node('node_2', 'Living room'),
  node('node_3', 'Kitchen'),
  node('node_8', 'Stair foot'),
  node('node_10', 'Landing', 'Upper floor,\n top of the stairs'),
];

/** A task as the guideline asks for it; `over` changes fields, `ni` the nodes_involved. */
const task = (over: Record<string, unknown> = {}, ni: Record<string, unknown> = {}) => ({
  scene_type: 'home',
  question: 'Can [Agent] move from the coat rack in the entrance hall to the sink in the kitchen?',
  reason: 'The coat rack stands in the hall (00:02-00:04); the living room leads on to the kitchen, whose sink shows at 00:20.',
  nodes_involved: { start: 'node_1', start_detail: 'coat rack', intermediate: ['node_2'], end: 'node_3', end_detail: 'sink', ...ni },
  ...over,
});
const reply = (...tasks: unknown[]) => JSON.stringify(tasks, null, 2);
const ctx = { nodes: NODES, minTasks: 1 };
const messages = (content: string, c: Parameters<typeof checkTaskReply>[1] = ctx) => checkTaskReply(content, c).problems.map(problemText);

describe('the prompt that asks for tasks', () => {
  const frames = [
    { t: 0, url: 'data:image/jpeg;base64,AAAA' },
    { t: 10.5, url: 'data:image/jpeg;base64,BBBB' },
    { t: 75, url: 'data:image/jpeg;base64,CCCC' },
  ];
  const prompt = buildTaskPrompt({ nodes: NODES, frames, minTasks: 12, videoSeconds: 80 });

  it('is versioned and carries the guideline as its system message', () => {
    expect(prompt.version).toBe(PROMPT_VERSION);
    expect(prompt.system).toContain(TASK_GUIDELINE);
    expect(TASK_GUIDELINE).toMatch(/in-room detail/);
    expect(TASK_GUIDELINE).toMatch(/mm:ss-mm:ss/);
    expect(TASK_GUIDELINE).toMatch(/\[Agent\]/);
  });

  it('asks for at least N tasks and lists every node with its id, name and description, one line each', () => {
    const head = (prompt.parts[0] as { text: string }).text;
    expect(head).toContain('Give at least 12 tasks.');
    expect(head).toContain(
      'node_1: Entrance hall — Ground floor hub\nnode_2: Living room\nnode_3: Kitchen\nnode_8: Stair foot\nnode_10: Landing — Upper floor, top of the stairs',
    );
    expect(head).toContain('3 frames, sampled evenly');
    expect(head).toContain('The video lasts 01:20.');
    expect(nodeListText([node('node_9', '  ')])).toBe('node_9: (unnamed)');
  });

  it('sends each frame as an image, after a label with its video time, in order', () => {
    const labelsAndImages = prompt.parts.slice(1, -1).map((p) => (p.type === 'text' ? p.text : p.image_url.url));
    expect(labelsAndImages).toEqual([
      'Frame 1/3 at 00:00',
      'data:image/jpeg;base64,AAAA',
      'Frame 2/3 at 00:10',
      'data:image/jpeg;base64,BBBB',
      'Frame 3/3 at 01:15',
      'data:image/jpeg;base64,CCCC',
    ]);
    expect(prompt.parts.at(-1)).toEqual({ type: 'text', text: 'Reply with the JSON array of at least 12 tasks only.' });
  });

  it('refuses to ask for no tasks', () => {
    expect(() => buildTaskPrompt({ nodes: NODES, frames, minTasks: 0 })).toThrow(/at least 1 task/);
  });
});

describe('reading the reply, task by task', () => {
  it("keeps well-formed tasks with their references resolved, in any of the release's three forms", () => {
    const r = checkTaskReply(
      reply(
        task(),
        task(
          { question: 'Can [Agent] move from the sofa in the living room to the top of the stairs?' },
          { start: 'Living room', start_detail: 'sofa', intermediate: ['node_8 — Stair foot'], end: 'node_10', end_detail: 'top step' },
        ),
      ),
      ctx,
    );
    expect(r.problems).toEqual([]);
    expect(r.total).toBe(2);
    expect(r.tasks.map((t) => [t.start.nodeId, t.intermediate.map((i) => i.nodeId), t.end.nodeId])).toEqual([
      ['node_1', ['node_2'], 'node_3'],
      ['node_2', ['node_8'], 'node_10'],
    ]);
    expect(r.tasks[1]!.start).toEqual({ raw: 'Living room', nodeId: 'node_2' });
    expect(r.tasks[0]).toMatchObject({ index: 0, startDetail: 'coat rack', endDetail: 'sink', sceneType: 'home' });
  });

  it('tolerates a ```json fence and an object holding the list', () => {
    expect(checkTaskReply('```json\n' + reply(task()) + '\n```', ctx).tasks).toHaveLength(1);
    expect(checkTaskReply('Sure! Here they are:\n```\n' + reply(task()) + '\n```\nEnjoy.', ctx).tasks).toHaveLength(1);
    expect(checkTaskReply(JSON.stringify({ tasks: [task()] }), ctx).tasks).toHaveLength(1);
  });

  it('a reply with no JSON list is one problem of the reply, and keeps nothing', () => {
    expect(messages('I cannot see any rooms in these frames.')).toEqual([
      'the reply: the reply is not JSON (Unexpected token \'I\', "I cannot s"... is not valid JSON)',
    ]);
    expect(messages('{"answer": 3}')).toEqual(['the reply: the reply is JSON but not a list of tasks (a JSON array, or an object with a "tasks" array)']);
    expect(messages('')).toEqual(['the reply: the reply is empty']);
  });

  it('one task of broken JSON is reported by its number and the others are kept', () => {
    const text = `[\n${JSON.stringify(task())},\n{"question": "Can [Agent] move from the hall" "reason": "x"},\n${JSON.stringify(task({ question: 'Can [Agent] move from the hall to the stair foot?' }, { intermediate: [], end: 'node_8', end_detail: 'first step' }))}\n]`;
    const r = checkTaskReply(text, ctx);
    expect(r.tasks.map((t) => t.index)).toEqual([0, 2]);
    expect(r.problems.map(problemText)).toEqual([expect.stringMatching(/^task 2: not valid JSON \(/)]);
  });

  it('a reply cut off inside its last task keeps the complete ones and says the last was cut', () => {
    const full = reply(task(), task({ question: 'Can [Agent] move from the hall to the landing?' }, { end: 'node_10', end_detail: 'top step' }));
    const r = checkTaskReply(full.slice(0, full.length - 40), ctx);
    expect(r.tasks).toHaveLength(1);
    expect(r.problems.map(problemText)).toEqual(['task 2: not valid JSON: the reply ends inside it (cut off?)']);
  });

  it('refuses a task whose node is not in the graph, naming the node and where it was used', () => {
    expect(
      messages(
        reply(
          task(),
          task({ question: 'Can [Agent] move from the hall to the attic?' }, { end: 'Attic', end_detail: 'skylight' }),
          task({}, { intermediate: ['node_2', 'Cellar'] }),
        ),
      ),
    ).toEqual(['task 2: end node "Attic" is not in the graph', 'task 3: intermediate node 2 "Cellar" is not in the graph']);
    expect(messages(reply(task({}, { start: 'node_99 — Attic' })))[0]).toBe(
      'task 1: start node "node_99 — Attic" names node id node_99, which is not in the graph',
    );
  });

  it('refuses a task that starts where it ends, by its resolved node', () => {
    expect(messages(reply(task({}, { end: 'Entrance hall', intermediate: [] })))).toEqual([
      'task 1: starts and ends at the same node (node_1 Entrance hall)',
      'the reply: 0 valid tasks, fewer than the 1 asked for',
    ]);
  });

  it("refuses a repeat: the same question, or the same start and end with the same details — and a repeat of the scene's own question", () => {
    const same = task({ question: '  can [agent] move from the coat rack in the entrance hall to the sink in the kitchen ' });
    const sameEnds = task({ question: 'Can [Agent] get from the coat rack to the kitchen sink?' }, { start_detail: 'Coat rack', intermediate: [] });
    const otherDetail = task({ question: 'Can [Agent] move from the front door to the sink?' }, { start_detail: 'front door' });
    expect(messages(reply(task(), same, sameEnds, otherDetail))).toEqual([
      'task 2: repeats task 1 (the same question)',
      'task 3: repeats task 1 (the same start and end, with the same details)',
    ]);
    const existing = [
      { id: 'q4', text: 'Can [Agent] move from the coat rack in the entrance hall to the sink in the kitchen?', start: ref('node_1'), end: ref('node_3') },
    ];
    expect(messages(reply(task()), { ...ctx, existing })).toEqual([
      "task 1: repeats the scene's question q4 (the same question)",
      'the reply: 0 valid tasks, fewer than the 1 asked for',
    ]);
  });

  it('refuses a task with a missing or empty field, naming each', () => {
    const { reason: _r, ...noReason } = task();
    expect(
      messages(
        reply(
          noReason,
          task({ question: '   ' }, { end_detail: '' }),
          task({ nodes_involved: undefined }),
          task({}, { start: 7 }),
          'just a sentence',
          task({}, { intermediate: 'node_2' }),
        ),
      ),
    ).toEqual([
      'task 1: no reason (why the route exists, citing video times)',
      'task 2: no question (the task itself)',
      'task 2: no end_detail (where in the end node)',
      'task 3: no nodes_involved (its start and end nodes)',
      'task 4: start is a number, not text',
      'task 5: not a task object (text)',
      'task 6: intermediate is text, not a list of node ids',
      'the reply: 0 valid tasks, fewer than the 1 asked for',
    ]);
  });

  it('says when fewer valid tasks came back than were asked for, and keeps those', () => {
    const r = checkTaskReply(reply(task(), task({}, { end: 'Attic' })), { ...ctx, minTasks: 5 });
    expect(r.tasks).toHaveLength(1);
    expect(r.problems.map(problemText)).toEqual(['task 2: end node "Attic" is not in the graph', 'the reply: 1 valid task, fewer than the 5 asked for']);
    expect(r.problems.at(-1)!.severity).toBe('warning');
  });

  it('warns, and keeps the task, when the question does not name [Agent] or the reason cites no time or a time after the video', () => {
    const r = checkTaskReply(
      reply(
        task({ question: 'Can a person move from the coat rack to the sink?' }),
        task(
          { question: 'Can [Agent] move from the hall to the landing?', reason: 'The stairs rise from the stair foot.' },
          { end: 'node_10', end_detail: 'top step' },
        ),
        task(
          { question: 'Can [Agent] move from the hall to the stair foot?', reason: 'Seen at 00:10 and 03:40-03:45.' },
          { end: 'node_8', end_detail: 'first step' },
        ),
      ),
      { ...ctx, videoSeconds: 80 },
    );
    expect(r.tasks).toHaveLength(3);
    expect(r.problems.map((p) => `${p.severity} ${problemText(p)}`)).toEqual([
      'warning task 1: the question does not name the agent as [Agent]',
      'warning task 2: the reason cites no video time',
      "warning task 3: the reason cites 03:40-03:45, after the video's end (01:20)",
    ]);
  });
});

describe('tasks into the review queue', () => {
  const provenance: Provenance = {
    model: 'vlm-7b',
    promptVersion: PROMPT_VERSION,
    endpoint: '127.0.0.1:8080',
    frames: { budget: '16', times: [0, 5, 10] },
    generatedAt: '2026-01-02T03:04:05.000Z',
  };
  function project(): Project {
    const p = emptyProject();
    const scene = sceneOf({
      id: 'HOUSE',
      graph: { nodes: NODES, edges: navEdges('node_1-node_2', 'node_2-node_3', 'node_2-node_8', 'node_8-node_10') },
      questions: [{ id: 'q0', text: 'Can [Agent] move from the hall to the kitchen?', start: ref('node_1'), intermediate: [], end: ref('node_3') }],
    });
    return {
      ...p,
      scenes: [scene],
      qa: {
        ...p.qa,
        items: [
          {
            id: 'qa_4',
            sceneId: 'HOUSE',
            question: 'x',
            answer: { kind: 'yesno', correct: true },
            category: { capability: 'spatial' },
            anchors: { viewpoints: [], marks: [], nodes: [], edges: [] },
            trail: [],
            source: 'written',
            status: 'draft',
            requiredReviews: 1,
            reviews: [],
            createdAt: '',
            author: 'ana',
          },
        ],
      },
    };
  }
  const tasks = checkTaskReply(
    reply(task(), task({ question: 'Can [Agent] move from the hall to the landing?' }, { end: 'node_10', end_detail: 'top step', intermediate: [] })),
    ctx,
  ).tasks;

  it('each task becomes a scene question and a pending generated item standing for it, with its provenance', () => {
    const { project: p, itemIds } = insertTasks(project(), { sceneId: 'HOUSE', tasks, provenance, requiredReviews: 2 });
    expect(itemIds).toEqual(['qa_5', 'qa_6']);
    const scene = p.scenes[0]!;
    expect(scene.questions.map((q) => q.id)).toEqual(['q0', 'q1', 'q2']);
    expect(scene.questions[1]).toMatchObject({
      text: tasks[0]!.question,
      reason: tasks[0]!.reason,
      startDetail: 'coat rack',
      endDetail: 'sink',
      sceneType: 'home',
      start: { nodeId: 'node_1' },
      end: { nodeId: 'node_3' },
    });
    const item = p.qa.items.find((i) => i.id === 'qa_5')!;
    expect(item).toMatchObject({
      source: 'generated',
      status: 'pending',
      capnavQuestion: 1,
      requiredReviews: 2,
      question: tasks[0]!.question,
      answer: { kind: 'yesno', correct: true },
      anchors: { nodes: ['node_1', 'node_2', 'node_3'] },
      provenance,
      generated: { generator: 'vlm-7b' },
      importedFrom: { file: runLabel(provenance), at: provenance.generatedAt },
    });
    expect(item.trail.map((s) => s.text)).toEqual([
      'The coat rack stands in the hall (00:02-00:04); the living room leads on to the kitchen, whose sink shows at 00:20.',
    ]);
    expect(checkQaItems(p).filter((f) => f.severity === 'error' && f.itemId === 'qa_5')).toEqual([]);
  });

  it('the queue can be narrowed to the model and to the run', () => {
    const { project: p } = insertTasks(project(), { sceneId: 'HOUSE', tasks, provenance });
    const item = p.qa.items.at(-1)!;
    expect(sourceKey(item)).toBe('generated:vlm-7b');
    const options = scopeOptions(p.qa.items);
    expect(options.sources.map((o) => `${o.label} (${o.count})`)).toContain('Generated by vlm-7b (2)');
    expect(options.batches.find((b) => b.value === batchKey(item))!.label).toBe('tasks generated by vlm-7b (traversa-tasks-1) · 2026-01-02 03:04 UTC');
  });

  it('a release leaves out the generated tasks no reviewer has accepted yet, and says which; accepted and rejected ones stay', () => {
    const { project: p, itemIds } = insertTasks(project(), { sceneId: 'HOUSE', tasks, provenance });
    const withStatus = (status: QaItem['status']): Project => ({
      ...p,
      qa: { ...p.qa, items: p.qa.items.map((i) => (i.id === itemIds[0] ? { ...i, status: 'accepted' } : i.id === itemIds[1] ? { ...i, status } : i)) },
    });
    const questionsIn = (q: Project) => {
      const zip = releaseZip(q);
      const qa = Object.entries(unzipSync(zip.bytes)).find(([name]) => name.endsWith('HOUSE_QA.json'))!;
      return { texts: (JSON.parse(strFromU8(qa[1])) as { question: string }[]).map((x) => x.question), zip };
    };
    for (const waiting of ['pending', 'adjudicate', 'draft'] as const) {
      const { texts, zip } = questionsIn(withStatus(waiting));
      expect(texts).toEqual(['Can [Agent] move from the hall to the kitchen?', tasks[0]!.question]);
      expect(zip.leftOut).toEqual([{ sceneId: 'HOUSE', question: tasks[1]!.question }]);
      expect(exportedNotice(zip)).toBe(
        `Exported ${zip.name}, without 1 generated task no reviewer has accepted yet (HOUSE); accept it in the QA view to include it.`,
      );
    }
    const rejected = questionsIn(withStatus('rejected'));
    expect(rejected.texts).toEqual(['Can [Agent] move from the hall to the kitchen?', tasks[0]!.question, tasks[1]!.question]);
    expect(rejected.zip.leftOut).toEqual([]);
    expect(exportedNotice(rejected.zip)).toBe(`Exported ${rejected.zip.name}.`);
    // Nothing generated: the project is given back as it is.
    const plain = project();
    expect(withoutUnreviewedTasks(plain).project).toBe(plain);
    // Both waiting: the scene keeps only its own question.
    const both = { ...p, qa: { ...p.qa, items: p.qa.items.map((i) => (itemIds.includes(i.id) ? { ...i, status: 'pending' as const } : i)) } };
    expect(withoutUnreviewedTasks(both).project.scenes[0]!.questions.map((q) => q.id)).toEqual(['q0']);
    expect(both.scenes[0]!.questions.map((q) => q.id)).toEqual(['q0', 'q1', 'q2']);
  });

  it('a release keeps the labels made while a left-out task was labelled, without its text; read back, none names a missing question', () => {
    const { project: p, itemIds } = insertTasks(project(), { sceneId: 'HOUSE', tasks, provenance });
    const label = (question: string, traversable = true) => ({ traversable, note: traversable ? '' : 'a step too high', question, annotator: 'ana' });
    const labelled: Project = {
      ...p,
      scenes: p.scenes.map((s) => ({
        ...s,
        labels: {
          ...s.labels,
          WHEELCHAIR: {
            'node_1|node_2': label('Can [Agent] move from the hall to the kitchen?'),
            'node_2|node_3': label(tasks[0]!.question),
            'node_8|node_10': label(tasks[1]!.question, false),
          },
        },
      })),
      // The first task accepted, the second still waiting.
      qa: { ...p.qa, items: p.qa.items.map((i) => (i.id === itemIds[0] ? { ...i, status: 'accepted' as const } : i)) },
    };
    const zip = releaseZip(labelled);
    const files = Object.entries(unzipSync(zip.bytes))
      .filter(([name]) => name.endsWith('.json'))
      .map(([name, bytes]) => ({ path: name.split('/').slice(1).join('/'), text: strFromU8(bytes) }));
    const back = readRelease(files);
    expect(back.problems.filter((x) => x.severity === 'error')).toEqual([]);
    const scene = back.project!.scenes[0]!;
    expect(scene.questions.map((q) => q.text)).not.toContain(tasks[1]!.question);
    expect(scene.labels.WHEELCHAIR).toMatchObject({
      'node_1|node_2': { traversable: true, question: 'Can [Agent] move from the hall to the kitchen?' },
      'node_2|node_3': { traversable: true, question: tasks[0]!.question },
      'node_8|node_10': { traversable: false, note: 'a step too high' },
    });
    expect(scene.labels.WHEELCHAIR!['node_8|node_10']!.question).toBeUndefined();
    expect(files.some((f) => f.text.includes(tasks[1]!.question))).toBe(false);
    expect(checkScene(scene).filter((f) => f.code === 'label.unknown-question')).toEqual([]);
    // The check does see such a label: the release's questions with the labels as they were made.
    expect(checkScene({ ...scene, labels: labelled.scenes[0]!.labels }).map((f) => f.code)).toContain('label.unknown-question');
  });

  it('nothing changes for no tasks or a scene the project lacks', () => {
    const p = project();
    expect(insertTasks(p, { sceneId: 'HOUSE', tasks: [], provenance }).project).toBe(p);
    expect(insertTasks(p, { sceneId: 'ELSEWHERE', tasks, provenance }).project).toBe(p);
  });

  it('"Review this scene\'s navigation questions" does not make CapNav items of generated tasks', () => {
    const { project: p } = insertTasks(project(), { sceneId: 'HOUSE', tasks, provenance });
    expect(capnavItemsForScene(p, 'HOUSE', { createdAt: 'now' }).map((i) => i.capnavQuestion)).toEqual([0]);
  });

  it('a generated task rejected for any reason leaves the benchmark (its question is listed); accepting it again brings it back', () => {
    const { project: p } = insertTasks(project(), { sceneId: 'HOUSE', tasks, provenance });
    const item = p.qa.items.find((i) => i.id === 'qa_5')!;
    const rejected = syncHallucination(p, addReview(item, { reviewer: 'bo', verdict: 'reject', reason: 'ambiguous', comment: '', timeMs: 1, at: 'now' }));
    expect(rejected.scenes[0]!.hallucinated).toEqual([tasks[0]!.question]);
    const accepted = syncHallucination(
      rejected,
      addReview(
        rejected.qa.items.find((i) => i.id === 'qa_5')!,
        { reviewer: 'bo', verdict: 'accept', comment: '', timeMs: 1, at: 'now' },
      ),
    );
    expect(accepted.scenes[0]!.hallucinated).toEqual([]);
  });
});
