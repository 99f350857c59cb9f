import type { z } from 'zod';
import type { NavQuestion, NodeRef } from '../../core/questions.ts';
import { extraFields } from '../json.ts';
import { KNOWN, type RawQuestion } from './rawSchemas.ts';

/**
 * Question `i` of a QA file as the project holds it: references through `ref` (given the raw text
 * and its path under `nodes_involved`), optional fields only when present, and fields we do not
 * model kept for the round trip.
 */
export function navQuestionOf(v: z.infer<typeof RawQuestion>, i: number, ref: (raw: string, path: (string | number)[]) => NodeRef): NavQuestion {
  const ni = v.nodes_involved;
  const question: NavQuestion = {
    id: `q${i}`,
    text: v.question,
    start: ref(ni.start, ['start']),
    intermediate: (ni.intermediate ?? []).map((r, k) => ref(r, ['intermediate', k])),
    end: ref(ni.end, ['end']),
  };
  if (v.scene_type !== undefined) question.sceneType = v.scene_type;
  if (v.reason !== undefined) question.reason = v.reason;
  if (ni.start_detail !== undefined) question.startDetail = ni.start_detail;
  if (ni.end_detail !== undefined) question.endDetail = ni.end_detail;
  const extra = extraFields(v, KNOWN.question);
  if (extra) question.extra = extra;
  const niExtra = extraFields(
    ni,
    KNOWN.nodesInvolved.filter((k) => k !== 'intermediate' || ni.intermediate !== null),
  );
  if (niExtra) question.nodesInvolvedExtra = niExtra;
  return question;
}
