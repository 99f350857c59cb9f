import { z } from 'zod';

/**
 * A project's taxonomy of question categories. The default is Embodied4C's four capabilities
 * with their 18 subcategories, plus general knowledge (domain-far questions, reported apart), and
 * FoMER's ten task types as a second, optional axis.
 */
export const TaxonomySchema = z.object({
  capabilities: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string(),
      /** Reported apart from the benchmark mean (Embodied4C's domain-far / general-knowledge questions). */
      separate: z.boolean().default(false),
      subcategories: z.array(z.object({ id: z.string().min(1), name: z.string() })),
    }),
  ),
  taskTypes: z.array(z.object({ id: z.string().min(1), name: z.string() })),
});
export type Taxonomy = z.infer<typeof TaxonomySchema>;

export const DEFAULT_TAXONOMY: Taxonomy = {
  capabilities: [
    {
      id: 'semantic',
      name: 'Semantic',
      separate: false,
      subcategories: [
        { id: 'CL', name: 'Classes' },
        { id: 'AT', name: 'Attributes' },
        { id: 'ST', name: 'States' },
      ],
    },
    {
      id: 'spatial',
      name: 'Spatial',
      separate: false,
      subcategories: [
        { id: 'LC', name: 'Location' },
        { id: 'DT', name: 'Distance' },
        { id: 'OR', name: 'Orientation' },
        { id: 'TP', name: 'Topology' },
        { id: 'CT', name: 'Counting' },
        { id: 'R/S', name: 'Relative size' },
        { id: 'R/P', name: 'Relative position' },
        { id: 'R/D', name: 'Relative distance' },
      ],
    },
    {
      id: 'temporal',
      name: 'Temporal',
      separate: false,
      subcategories: [
        { id: 'MT', name: 'Movement and time' },
        { id: 'S/M', name: 'Short-term memory' },
        { id: 'L/M', name: 'Long-term memory' },
      ],
    },
    {
      id: 'physical',
      name: 'Physical',
      separate: false,
      subcategories: [
        { id: 'MD', name: 'Model dynamics' },
        { id: 'CS', name: 'Constraints' },
        { id: 'M/P', name: 'Material properties' },
        { id: 'E/E', name: 'Environmental effects' },
      ],
    },
    { id: 'general', name: 'General knowledge (domain-far)', separate: true, subcategories: [] },
  ],
  taskTypes: [
    { id: 'task-completion', name: 'Task completion verification' },
    { id: 'next-action', name: 'Next-action prediction' },
    { id: 'affordance', name: 'Action affordance' },
    { id: 'physical-common-sense', name: 'Physical common sense reasoning' },
    { id: 'robot-centric', name: 'Robot-centric' },
    { id: 'temporal-reasoning', name: 'Temporal reasoning' },
    { id: 'tool-use', name: 'Tool use and manipulation' },
    { id: 'social-navigation', name: 'Social navigation' },
    { id: 'human-robot-object', name: 'Human-robot object interaction' },
    { id: 'risk-assessment', name: 'Risk assessment' },
  ],
};
