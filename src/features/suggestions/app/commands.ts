import type { ArgCommandsOf } from '../../../state/commandIds.ts';
import type { SuggestionRunner } from './suggestions.ts';

declare module '../../../state/commandIds.ts' {
  interface ArgCommands {
    /** Measure the scene's scan and suggest a label for every edge and agent. */
    'suggestions.compute': (sceneId: string) => Promise<void>;
  }
}

export function suggestionArgCommands(suggestions: SuggestionRunner): ArgCommandsOf<'suggestions'> {
  return { 'suggestions.compute': (sceneId) => suggestions.compute(sceneId) };
}
