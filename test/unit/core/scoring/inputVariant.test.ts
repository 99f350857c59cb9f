import { describe, expect, it } from 'vitest';
import { variantGroups, variantsOf } from '../../../../src/core/scoring/paper/inputVariant.ts';
import { readSetting } from '../../../../src/core/scoring/paper/settingName.ts';
import { modelSettingName } from '../../../../src/core/evalinputs/run.ts';

const read = (s: string) => {
  const r = readSetting(s);
  return [r.model, r.budget, r.variant];
};

/** Issue 27 §5: runs with spatial inputs (`…_with-depth+graph`, as run-model names them) group by input variant per model and budget. */
describe('input variants from model-setting names', () => {
  it("reads the model, budget and inputs out of a setting's name", () => {
    expect(read('gpt-4o_16f')).toEqual(['gpt-4o', '16 frames', 'frames only']);
    expect(read('gpt-4o_16f_with-depth+graph')).toEqual(['gpt-4o', '16 frames', '+depth +graph']);
    expect(readSetting('gpt-4o_16f_with-depth+graph').parts).toEqual(['depth', 'graph']);
    expect(read('gemini-2.5-pro_1fps_with-map')).toEqual(['gemini-2.5-pro', '1 fps', '+map']);
    expect(read('qwen2.5_vl-7b_0.5fps_with-depth+map+graph')).toEqual(['qwen2.5_vl-7b', '0.5 fps', '+depth +map +graph']);
    // Any order and case read in the canonical order; the token may come before the budget.
    expect(read('gpt-4o_with-Graph+depth_32f')).toEqual(['gpt-4o', '32 frames', '+depth +graph']);
    // No budget: the model is the rest of the name.
    expect(read('llava-next_with-depth')).toEqual(['llava-next', null, '+depth']);
    expect(read('oracle')).toEqual(['oracle', null, 'frames only']);
  });

  it('takes a token naming an unknown, repeated or no input as part of the model, not as a variant', () => {
    expect(read('gpt-4o_16f_with-foo')).toEqual(['gpt-4o_with-foo', '16 frames', 'frames only']);
    expect(read('gpt-4o_16f_with-depth+foo')).toEqual(['gpt-4o_with-depth+foo', '16 frames', 'frames only']);
    expect(read('gpt-4o_16f_with-depth+depth')).toEqual(['gpt-4o_with-depth+depth', '16 frames', 'frames only']);
    expect(read('gpt-4o_16f_with-+graph')).toEqual(['gpt-4o_with-+graph', '16 frames', 'frames only']);
    // `with-` inside a model's own name (after a dash, or without the `_` token) is not a variant either.
    expect(read('llama-with-depth_16f')).toEqual(['llama-with-depth', '16 frames', 'frames only']);
    expect(read('_with-depth')).toEqual(['_with-depth', null, 'frames only']);
  });

  it('groups a model at one budget by variant: frames only, then by number of inputs, then depth, map, graph', () => {
    const groups = variantGroups([
      'gpt-4o_16f_with-depth+graph',
      'gpt-4o_32f',
      'gpt-4o_16f_with-graph',
      'gpt-4o_16f',
      'gpt-4o_16f_with-depth+map+graph',
      'gpt-4o_16f_with-map',
      'gpt-4o_32f_with-depth',
      'gpt-4o_16f_with-depth',
      'qwen_with-map',
      'qwen',
      'solo_16f',
      'solo_16f_with-foo',
      'gem_64f_with-depth',
    ]);
    expect(groups.map((g) => [g.label, g.runs.map((r) => r.setting)])).toEqual([
      [
        'gpt-4o · 16 frames',
        [
          'gpt-4o_16f',
          'gpt-4o_16f_with-depth',
          'gpt-4o_16f_with-map',
          'gpt-4o_16f_with-graph',
          'gpt-4o_16f_with-depth+graph',
          'gpt-4o_16f_with-depth+map+graph',
        ],
      ],
      ['gpt-4o · 32 frames', ['gpt-4o_32f', 'gpt-4o_32f_with-depth']],
      ['qwen', ['qwen', 'qwen_with-map']],
    ]);
    expect(variantsOf(groups)).toEqual(['frames only', '+depth', '+map', '+graph', '+depth +graph', '+depth +map +graph']);
  });
});

describe('the names run-model writes read back', () => {
  it('every variant of a model at a budget, as modelSettingName writes its folder, reads back as that model, budget and variant', () => {
    for (const parts of [[], ['depth'], ['map', 'graph'], ['depth', 'map', 'graph']] as const) {
      for (const budget of ['16', '1fps'] as const) {
        const name = modelSettingName('Qwen/Qwen2.5-VL-7B', budget, [...parts]);
        expect(readSetting(name), name).toMatchObject({ model: 'Qwen-Qwen2.5-VL-7B', budget: budget === '16' ? '16 frames' : '1 fps', parts });
      }
    }
  });
});
