import { vqaDefinition, type KindAccuracy, type QaModelReport } from '../../../core/scoring/vqa/qaAnswers.ts';
import { useStudio, useStudioStore } from '../../../state/useStudio.ts';
import { fmt, fmtStat } from './qaAnswersFormat.ts';
import { pickQaAnswersModel } from '../state/scoreSession.ts';

const acc = (k: KindAccuracy, v: number | null) => (k.n ? fmt(v) : '–');

function Row({ m, selected, onPick }: { m: QaModelReport; selected: boolean; onPick: () => void }) {
  const qa = m.embodied4c.benchmarks.qa;
  const c = qa?.capabilities;
  return (
    <tr data-model={m.model} className={selected ? 'selected' : ''} onClick={onPick}>
      <th scope="row">{m.model}</th>
      <td data-col="sem">{fmtStat(c?.semantic)}</td>
      <td data-col="spa">{fmtStat(c?.spatial)}</td>
      <td data-col="tem">{fmtStat(c?.temporal)}</td>
      <td data-col="phy">{fmtStat(c?.physical)}</td>
      <td data-col="vqa">
        <strong>{fmtStat(qa?.vqa)}</strong>
      </td>
      <td data-col="gen">{fmtStat(m.embodied4c.general)}</td>
      <td data-col="outside">{m.outside.n ? `${fmt(m.outside.mean)} (${m.outside.n})` : '–'}</td>
      <td data-col="mcq-acc">{acc(m.mcq, m.mcq.accuracy)}</td>
      <td data-col="mcq-fail">{acc(m.mcq, m.mcq.failRate)}</td>
      <td data-col="yn-acc">{acc(m.yesno, m.yesno.accuracy)}</td>
      <td data-col="yn-fail">{acc(m.yesno, m.yesno.failRate)}</td>
      <td data-col="numeric">{m.numeric.n ? fmt(m.numeric.mean) : '–'}</td>
      <td data-col="free">{m.freetext.n ? `${m.freetext.judged}/${m.freetext.n}` : '–'}</td>
      <td data-col="missing">{m.missing.length}</td>
      <td data-col="unmatched">{m.unmatched.length}</td>
      <td data-col="duplicates">{m.duplicates.length}</td>
    </tr>
  );
}

/** Embodied4C's table shape, one row per model: SEM · SPA · TEM · PHY · VQA · GEN, then the answer kinds and what was missing or extra. */
export function QaAnswersTable() {
  const store = useStudioStore();
  const report = useStudio((s) => s.qaAnswers.report);
  const selected = useStudio((s) => s.qaAnswers.selectedModel);
  if (!report || report.models.length === 0) return null;
  const pick = (model: string) => pickQaAnswersModel(store, model);
  const st = report.settings;
  return (
    <div className="score-table" style={{ overflowX: 'auto' }}>
      <table className="table" data-testid="qa-answers-table">
        <thead>
          <tr>
            <th>Model</th>
            <th title="semantic">SEM</th>
            <th title="spatial">SPA</th>
            <th title="temporal">TEM</th>
            <th title="physical">PHY</th>
            <th>VQA</th>
            <th title="general knowledge, reported apart">GEN</th>
            <th title="capabilities outside Embodied4C's four: scored, not in the means">outside (n)</th>
            <th>MCQ acc</th>
            <th>MCQ fail</th>
            <th>yes/no acc</th>
            <th>yes/no fail</th>
            <th>numeric</th>
            <th>free text judged</th>
            <th title="items without an answer (scored 0)">missing</th>
            <th title="answers to no item (not scored)">unmatched</th>
            <th title="items answered more than once (the last counts)">repeated</th>
          </tr>
        </thead>
        <tbody>
          {report.models.map((m) => (
            <Row key={m.model} m={m} selected={m.model === selected} onPick={() => pick(m.model)} />
          ))}
        </tbody>
      </table>
      <p className="hint">
        Percentages over {report.items} accepted item{report.items === 1 ? '' : 's'}; VQA = {vqaDefinition(report)}; numeric τ{' '}
        {st.tau === 'per item' ? "is each item's own tolerance" : `= ${st.tau} for every item`}; items without an answer score 0 and count as wrong (not as
        parse failures); unjudged free text is left out of the means
        {st.bootstrap.resamples ? `; ${Math.round(st.bootstrap.level * 100)} % bootstrap intervals from ${st.bootstrap.resamples} resamples` : ''}.
      </p>
    </div>
  );
}
