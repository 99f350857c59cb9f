import { hasBlocking, pointer, type Problem } from '../../core/problems.ts';
import type { Project } from '../../core/project.ts';
import { resolveRef, type NavQuestion, type NodeRef } from '../../core/questions.ts';
import { capnavQuestionItem, type CapnavItemOptions } from '../../core/vqa/capnav.ts';
import type { QaItem } from '../../core/vqa/item.ts';
import { highestItemNumber } from '../../core/vqa/items.ts';
import { classify } from '../capnav/files.ts';
import { navQuestionOf } from '../capnav/question.ts';
import { RawQuestion, RawQuestionFile } from '../capnav/rawSchemas.ts';
import { checkShape, parseJson, type SourceFile } from '../json.ts';
import { append } from '../../core/arrays.ts';

/**
 * CapNav question files (`<SCENE>_QA.json`, a bare list or `{ "questions": [...] }`) read as items
 * to review, one per question (see core/vqa/capnav.ts for what an item says). The scene must be
 * in the project: its graph resolves the references. An item stands for the scene question at
 * the same index, so the file must BE the scene's question list: when the scene has no questions
 * yet, the file's questions become its questions (`sceneQuestions`); when it has the same
 * questions, the items stand for those; when they differ, nothing is imported. Questions that
 * already have an item are skipped with a warning.
 */
export interface CapnavQaImport {
  /** Empty when any problem is fatal. */
  items: QaItem[];
  /** Question lists for scenes that had none, to be set on the scene together with the items. */
  sceneQuestions: Record<string, NavQuestion[]>;
  problems: Problem[];
}

export function readCapnavQaItems(files: readonly SourceFile[], project: Pick<Project, 'scenes' | 'qa'>, options: CapnavItemOptions): CapnavQaImport {
  const problems: Problem[] = [];
  const items: QaItem[] = [];
  const sceneQuestions: Record<string, NavQuestion[]> = {};
  let n = highestItemNumber(project.qa.items);
  for (const file of files) {
    const kind = classify(file.path);
    if (kind.kind !== 'qa') {
      problems.push({
        severity: 'warning',
        code: 'file.ignored',
        file: file.path,
        location: '',
        message: 'not a CapNav question file (<SCENE>_QA.json); ignored',
      });
      continue;
    }
    const scene = project.scenes.find((s) => s.id === kind.scene);
    if (!scene) {
      problems.push({
        severity: 'fatal',
        code: 'qa.unknown-scene',
        file: file.path,
        location: '',
        message: `scene ${kind.scene} is not in the project: import its graph first, which the questions' references name`,
      });
      continue;
    }
    if (sceneQuestions[scene.id] || items.some((i) => i.sceneId === scene.id)) {
      problems.push({ severity: 'fatal', code: 'file.duplicate', file: file.path, location: '', message: `a second question file for scene ${scene.id}` });
      continue;
    }
    const read = readQuestions(file, scene.graph.nodes, problems);
    if (!read) continue;
    const { questions, base } = read;
    let standFor = scene.questions;
    if (scene.questions.length === 0) {
      sceneQuestions[scene.id] = questions;
      standFor = questions;
    } else {
      const i = questions.findIndex((q, k) => scene.questions[k]?.text !== q.text);
      if (i !== -1 || questions.length !== scene.questions.length) {
        const where = i !== -1 ? pointer([...base, i, 'question']) : '';
        const what =
          i !== -1 && i < scene.questions.length
            ? `question ${i} differs from the scene's question ${i}`
            : `the file has ${questions.length} questions, the scene ${scene.questions.length}`;
        problems.push({
          severity: 'fatal',
          code: 'qa.questions-differ',
          file: file.path,
          location: where,
          message: `${what}: the items would stand for the wrong questions. Pick the scene's own question file`,
        });
        continue;
      }
    }
    const covered = new Map(
      project.qa.items
        .filter((it) => it.source !== 'written' && it.capnavQuestion !== undefined && it.sceneId === scene.id)
        .map((it) => [it.capnavQuestion, it.id]),
    );
    standFor.forEach((_, index) => {
      const existing = covered.get(index);
      if (existing) {
        problems.push({
          severity: 'warning',
          code: 'qa.already-imported',
          file: file.path,
          location: pointer([...base, index]),
          message: `question ${index} is already item ${existing}; not imported again`,
        });
        return;
      }
      items.push(
        capnavQuestionItem({ id: scene.id, questions: standFor }, index, `qa_${++n}`, { ...options, importedFrom: { file: file.path, at: options.createdAt } }),
      );
    });
  }
  const blocked = hasBlocking(problems);
  return { items: blocked ? [] : items, sceneQuestions: blocked ? {} : sceneQuestions, problems };
}

/**
 * The questions of a file, read as the release reader reads them (same schema, same reference
 * forms, unmodelled fields kept); references that match no node are errors, not guesses.
 */
function readQuestions(
  file: SourceFile,
  nodes: Project['scenes'][number]['graph']['nodes'],
  problems: Problem[],
): { questions: NavQuestion[]; base: string[] } | null {
  const parsed = parseJson(file);
  if (!parsed.ok) {
    problems.push(parsed.problem);
    return null;
  }
  const shape = checkShape(file.path, parsed.value, RawQuestionFile);
  if (!shape.ok) {
    problems.push({
      severity: 'fatal',
      code: 'schema',
      file: file.path,
      location: '',
      message: 'expected a list of questions, or an object with a "questions" list',
    });
    return null;
  }
  const list = Array.isArray(shape.value) ? shape.value : shape.value.questions;
  const base = Array.isArray(shape.value) ? [] : ['questions'];
  const before = problems.length;
  const questions: NavQuestion[] = [];
  list.forEach((raw, i) => {
    const q = checkShape(file.path, raw, RawQuestion, [...base, i]);
    if (!q.ok) {
      append(problems, q.problems);
      return;
    }
    const ref = (rawRef: string, path: (string | number)[]): NodeRef => {
      const r = resolveRef(rawRef, nodes);
      if (r.nodeId === null)
        problems.push({
          severity: 'error',
          code: 'question.unresolved-ref',
          file: file.path,
          location: pointer([...base, i, 'nodes_involved', ...path]),
          message: `question ${i}: ${r.reason}`,
        });
      return { raw: rawRef, nodeId: r.nodeId };
    };
    const question = navQuestionOf(q.value, i, ref);
    questions.push(question);
  });
  return problems.slice(before).some((p) => p.severity === 'fatal') ? null : { questions, base };
}
