import { describe, expect, it } from 'vitest';
import { budgetGroups, budgetOf, budgetsOf } from '../../../../src/core/scoring/paper/frameBudget.ts';

/** Issue 23 §12: settings named as the CapNav runs name them group into Figure 6's frame budgets per model. */
describe('frame budgets from model-setting names', () => {
  it("reads the budget out of a setting's name", () => {
    expect(budgetOf('gemini-2.5-pro_16f')).toMatchObject({ model: 'gemini-2.5-pro', budget: '16 frames', order: 16 });
    expect(budgetOf('qwen3-vl-8b_1fps_thinking')).toMatchObject({ model: 'qwen3-vl-8b_thinking', budget: '1 fps' });
    expect(budgetOf('gpt-5-64-frames')).toMatchObject({ model: 'gpt-5', budget: '64 frames' });
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
});
