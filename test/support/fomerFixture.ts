import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PROFILES } from '../../src/core/agents.ts';
import { emptyProject, type Project } from '../../src/core/project.ts';
import { buildSampleRelease, SAMPLE_SCENE_ID } from '../../src/core/sample/sampleRelease.ts';
import { FOMER_CRITERIA } from '../../src/core/scoring/vqa/fomer.ts';
import { capnavItemsForScene } from '../../src/core/vqa/capnav.ts';
import type { Answer, QaItem } from '../../src/core/vqa/item.ts';
import { createWrittenItem } from '../../src/core/vqa/items.ts';
import { writeBundle } from '../../src/formats/bundle.ts';
import { exportQaBundle } from '../../src/formats/qa/bundle.ts';
import { append } from '../../src/core/arrays.ts';

/**
 * The sample house with reasoning trails, as a researcher would have it: its first four CapNav
 * questions as items (their trails are the generator's reasons, source `capnav`) and three
 * written items with trails (MCQ, numeric, free text; source `written`), all accepted. Two
 * models answer with reasoning steps; a judge's rubric scores come as an imported file.
 */
const AT = '2026-05-01T10:00:00.000Z';

const step = (i: number, text: string): QaItem['trail'][number] => ({
  id: `s${i}`,
  title: `Step ${i}`,
  text,
  kind: 'spatial',
  links: { viewpoints: [], nodes: [], edges: [], marks: [] },
  origin: 'written',
});
const accepted = (item: QaItem): QaItem => ({
  ...item,
  status: 'accepted',
  reviews: [{ reviewer: 'rita', verdict: 'accept', comment: '', timeMs: 1000, at: AT }],
});

export function reasoningProject(): Project {
  // One agent: each CapNav question is then one yes/no item, `qa_N:HUMAN`, answered by the labels.
  const p = emptyProject(
    'Sample house reasoning',
    DEFAULT_PROFILES.filter((a) => a.name === 'HUMAN'),
  );
  p.scenes.push(buildSampleRelease().scene);
  append(p.qa.items, capnavItemsForScene(p, SAMPLE_SCENE_ID, { createdAt: AT }).slice(0, 4).map(accepted));
  const written = (question: string, answer: Answer, capability: string, trail: string[]) => {
    const item = createWrittenItem(p.qa.items, { sceneId: SAMPLE_SCENE_ID, author: 'dee', createdAt: AT, question, answer, category: { capability } });
    p.qa.items.push(accepted({ ...item, trail: trail.map((t, i) => step(i + 1, t)) }));
  };
  written(
    'Which room is on the upper floor?',
    {
      kind: 'mcq',
      options: [
        { key: 'A', text: 'Kitchen' },
        { key: 'B', text: 'Bedroom 1' },
      ],
      correct: 'B',
    },
    'semantic',
    ['The kitchen is on the ground floor.', 'Bedroom 1 is off the upper hall.'],
  );
  written('How wide is the door of Bedroom 1?', { kind: 'numeric', value: 0.7, unit: 'm', tolerance: 0.1 }, 'physical', [
    'Bedroom 1 has the narrowest door of the house, 0.70 m clear.',
  ]);
  written('How does one reach the study from the living room?', { kind: 'freetext', reference: 'Through the hall and the corridor.' }, 'spatial', [
    'Leave the living room into the hall.',
    'Take the 0.8 m corridor to the back hall.',
    'Enter the study.',
  ]);
  // A draft: not accepted, never scored.
  p.qa.items.push(
    createWrittenItem(p.qa.items, {
      sceneId: SAMPLE_SCENE_ID,
      author: 'dee',
      createdAt: AT,
      question: 'Draft?',
      answer: { kind: 'yesno', correct: true },
      category: { capability: 'spatial' },
    }),
  );
  return p;
}

/** All ten criteria at `base`, with some changed. */
export const rubric = (base: number, changed: Record<string, number> = {}) => ({
  ...Object.fromEntries(FOMER_CRITERIA.map((c) => [c.name, base])),
  ...changed,
});

/**
 * Item ids: qa_1:HUMAN..qa_4:HUMAN CapNav (yes/no for the human, answered yes by the labels), qa_5 MCQ (B), qa_6 numeric (0.7 m), qa_7 free text.
 *
 * vlm-a answers all seven with steps, except qa_4 (no steps); qa_6 says 0.6 m (14 % off, beyond τ 0.1 → 0).
 * vlm-b (second file, model named in its lines) answers qa_1..qa_5 with steps, not qa_6 or qa_7.
 */
export const ANSWERS_A = [
  { id: 'qa_1:HUMAN', answer: 'Yes', steps: ['The lift reaches the upper hall.', 'Bedroom 2 is off the upper hall.'] },
  { id: 'qa_2:HUMAN', answer: 'Yes', steps: ['The lift reaches the upper hall.'] },
  { id: 'qa_3:HUMAN', answer: 'No', steps: ['The corridor is too narrow.'] },
  { id: 'qa_4:HUMAN', answer: 'Yes' },
  { id: 'qa_5', answer: 'B', steps: [{ title: 'Floor', text: 'Bedroom 1 is upstairs.' }] },
  { id: 'qa_6', answer: 'About 0.6 m', steps: ['The door looks narrow.'] },
  { id: 'qa_7', answer: 'Via the hall and the corridor.', judgeScore: 90, steps: ['Hall.', 'Corridor.', 'Study.'] },
];
export const ANSWERS_B = [
  { id: 'qa_1:HUMAN', answer: 'No', model: 'vlm-b', steps: ['Stairs block the way.'] },
  { id: 'qa_2:HUMAN', answer: 'Yes', model: 'vlm-b', steps: ['Upstairs by the lift.'] },
  { id: 'qa_3:HUMAN', answer: 'Yes', model: 'vlm-b', steps: ['Through the corridor.'] },
  { id: 'qa_4:HUMAN', answer: 'Yes', model: 'vlm-b', steps: ['The bathroom door opens.'] },
  { id: 'qa_5', answer: 'A', model: 'vlm-b', steps: ['Kitchens are upstairs.'] },
];

/**
 * The judge's scores. vlm-a: qa_1 all 8, qa_2 all 6, qa_3 all 4, qa_5 all 9, qa_6 all 5, qa_7 all 7
 * (qa_4 has no steps, so its entry is never used). vlm-b: qa_1 all 3, qa_2 all 7 but Safety 0
 * (out of range: left out of RA), qa_3 no entry of its own but one for every model (all 6 but
 * Missing Step 2), qa_4 all 5, qa_5 all 2.
 */
export const TRAIL_SCORES = {
  judge: 'test panel',
  verdicts: [
    { id: 'qa_1:HUMAN', model: 'vlm-a', criteria: rubric(8) },
    { id: 'qa_2:HUMAN', model: 'vlm-a', criteria: rubric(6) },
    { id: 'qa_3:HUMAN', model: 'vlm-a', criteria: rubric(4) },
    { id: 'qa_4:HUMAN', model: 'vlm-a', criteria: rubric(9) },
    { id: 'qa_5', model: 'vlm-a', criteria: rubric(9) },
    { id: 'qa_6', model: 'vlm-a', criteria: rubric(5) },
    { id: 'qa_7', model: 'vlm-a', criteria: rubric(7), final: 3 },
    { id: 'qa_1:HUMAN', model: 'vlm-b', criteria: rubric(3) },
    { id: 'qa_2:HUMAN', model: 'vlm-b', criteria: rubric(7, { Safety: 0 }) },
    { id: 'qa_3:HUMAN', criteria: rubric(6, { 'Missing Step': 2 }) },
    { id: 'qa_4:HUMAN', model: 'vlm-b', criteria: rubric(5) },
    { id: 'qa_5', model: 'vlm-b', criteria: rubric(2) },
  ],
};

export interface ReasoningFiles {
  dir: string;
  projectBundle: string;
  qaBundle: string;
  answersA: string;
  answersB: string;
  scores: string;
}

/** Write the project bundle, the QA bundle, both answer files and the scores file into `dir`. */
export function writeReasoningFiles(dir: string): ReasoningFiles {
  const project = reasoningProject();
  const qa = exportQaBundle(project, { createdAt: AT, appVersion: 'test' });
  if (!qa.ok) throw new Error(`the QA bundle should export: ${qa.errors.map((e) => e.message).join('; ')}`);
  const qaBundle = join(dir, 'qa-bundle');
  for (const f of qa.files) {
    mkdirSync(join(qaBundle, f.path, '..'), { recursive: true });
    writeFileSync(join(qaBundle, f.path), f.text);
  }
  const bundle = writeBundle(project, AT);
  const files: ReasoningFiles = {
    dir,
    projectBundle: join(dir, bundle.path),
    qaBundle,
    answersA: join(dir, 'vlm-a.jsonl'),
    answersB: join(dir, 'runs-b.jsonl'),
    scores: join(dir, 'trail-scores.json'),
  };
  writeFileSync(files.projectBundle, bundle.text);
  writeFileSync(files.answersA, ANSWERS_A.map((a) => JSON.stringify(a)).join('\n') + '\n');
  writeFileSync(files.answersB, ANSWERS_B.map((a) => JSON.stringify(a)).join('\n') + '\n');
  writeFileSync(files.scores, JSON.stringify(TRAIL_SCORES, null, 1) + '\n');
  return files;
}
