import { describe, expect, it } from 'vitest';
import { budgetGroups, budgetOf, budgetsOf } from '../../../../src/core/scoring/paper/frameBudget.ts';

/** Issue 23 §12: settings named as the CapNav runs name them group into Figure 6's frame budgets per model. */
describe('frame budgets from model-setting names', () => {
  it("reads the budget out of a setting's name", () => {
    expect(budgetOf('gemini-2.5-pro_16f')).toMatchObject({ model: 'gemini-2.5-pro', budget: '16 frames', order: 16 });
    expect(budgetOf('qwen3-vl-8b_1fps_thinking')).toMatchObject({ model: 'qwen3-vl-8b_thinking', budget: '1 fps' });
    expect(budgetOf('gpt-5-64-frames')).toMatchObject({ model: 'gpt-5', budget: '64 frames' });
    // The input variant is not part of the model (issue 27 §5).
    expect(budgetOf('gpt-4o_32f_with-depth+map')).toMatchObject({ model: 'gpt-4o', budget: '32 frames', variant: '+depth +map' });
    // Names that only look like budgets are not budgets.
    expect(budgetOf('qwen3-vl-8b')).toBeNull();
    expect(budgetOf('llava-16fast')).toBeNull();
    expect(budgetOf('16f')).toBeNull();
  });

  it("groups a model's budgets (frame counts up, then rates) and leaves out models run at one budget", () => {
    const groups = budgetGroups(['gem_1fps', 'gem_64f', 'gem_16f', 'gem_32f', 'qwen_16f', 'qwen_thinking_16f', 'qwen_32f', 'oracle', 'solo_16f']);
    expect(groups.map((g) => [g.model, g.runs.map((r) => r.setting)])).toEqual([
      ['gem', ['gem_16f', 'gem_32f', 'gem_64f', 'gem_1fps']],
      ['qwen', ['qwen_16f', 'qwen_32f']],
    ]);
    expect(budgetsOf(groups)).toEqual(['16 frames', '32 frames', '64 frames', '1 fps']);
  });

  it("Figure 6 by budget compares a model's runs with the same variant", () => {
    const groups = budgetGroups(['gpt-4o_16f_with-depth', 'gpt-4o_16f', 'gpt-4o_32f_with-depth', 'gpt-4o_32f', 'gpt-4o_64f_with-map', 'qwen_16f', 'qwen_32f']);
    expect(groups.map((g) => [g.label, g.runs.map((r) => r.setting)])).toEqual([
      ['gpt-4o', ['gpt-4o_16f', 'gpt-4o_32f']],
      ['gpt-4o +depth', ['gpt-4o_16f_with-depth', 'gpt-4o_32f_with-depth']],
      ['qwen', ['qwen_16f', 'qwen_32f']],
    ]);
    expect(groups[1]).toMatchObject({ model: 'gpt-4o', variant: '+depth' });
  });
});
