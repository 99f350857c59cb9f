/**
 * The sample house's navigation questions, in CapNav's style. They are chosen so that the five
 * agents disagree: every obstacle of the house decides at least one question for some agent.
 * Rooms are named by the keys of houseSpec.ts; sampleRelease.ts turns them into node ids.
 */
export interface SampleQuestion {
  text: string;
  reason: string;
  start: string;
  startDetail: string;
  intermediate: string[];
  end: string;
  endDetail: string;
}

export const SAMPLE_QUESTIONS: SampleQuestion[] = [
  {
    text: 'Can [Agent] move from the entrance hall to the second bedroom upstairs?',
    reason:
      "Bedroom 2 is on the upper floor. The stairs rise from the stair foot beside the living room and the lift runs from the lift lobby off the entrance hall; both reach the upper hall, and Bedroom 2's 1.20 m door has a 5 cm sill.",
    start: 'hall',
    startDetail: 'middle of the entrance hall',
    intermediate: [],
    end: 'bedroom2',
    endDetail: 'middle of Bedroom 2',
  },
  {
    text: 'Can [Agent] move from the entrance hall to the first bedroom upstairs?',
    reason:
      'Bedroom 1 is upstairs behind the narrowest door of the house, 0.70 m clear, off the upper hall; the upper hall is reached by the stairs or by the lift.',
    start: 'hall',
    startDetail: 'middle of the entrance hall',
    intermediate: [],
    end: 'bedroom1',
    endDetail: 'middle of Bedroom 1',
  },
  {
    text: 'Can [Agent] move from the living room to the study?',
    reason:
      'The study is reached from the living room through the entrance hall, the 0.8 m corridor to the back hall, and the study door, 0.80 m wide with a 2 cm sill.',
    start: 'living',
    startDetail: 'middle of the living room',
    intermediate: [],
    end: 'study',
    endDetail: 'middle of the study',
  },
  {
    text: 'Can [Agent] move from the kitchen to the utility room?',
    reason: 'The only way into the utility room is the 0.8 m wide L-shaped passage from the kitchen, which turns a right-angled corner.',
    start: 'kitchen',
    startDetail: 'middle of the kitchen',
    intermediate: [],
    end: 'utility',
    endDetail: 'middle of the utility room',
  },
  {
    text: 'Can [Agent] move from the entrance hall into the bathroom?',
    reason: 'The bathroom door, 0.80 m wide, opens off the entrance hall and is kept closed.',
    start: 'hall',
    startDetail: 'middle of the entrance hall',
    intermediate: [],
    end: 'bathroom',
    endDetail: 'middle of the bathroom',
  },
  {
    text: 'Can [Agent] move from the living room up to the landing?',
    reason:
      'The landing is at the top of the stairs that rise from the stair foot next to the living room; the lift to the upper lift lobby also leads there through the upper hall.',
    start: 'living',
    startDetail: 'middle of the living room',
    intermediate: [],
    end: 'landing',
    endDetail: 'top of the stairs',
  },
  {
    text: 'Can [Agent] move from the kitchen to the back hall?',
    reason: 'From the kitchen through the 0.90 m living-room door with its 1 cm sill, across the entrance hall and along the 0.8 m corridor to the back hall.',
    start: 'kitchen',
    startDetail: 'middle of the kitchen',
    intermediate: [],
    end: 'back-hall',
    endDetail: 'middle of the back hall',
  },
  {
    text: 'Can [Agent] move from the foot of the stairs to the first bedroom, passing the upper lift lobby on the way?',
    reason: "The upper lift lobby is upstairs, reached by the lift or by the stairs and the upper hall; Bedroom 1's door off the upper hall is 0.70 m wide.",
    start: 'stair-foot',
    startDetail: 'foot of the stairs',
    intermediate: ['upper-lift-lobby'],
    end: 'bedroom1',
    endDetail: 'middle of Bedroom 1',
  },
  {
    text: 'Can [Agent] move from the second bedroom down to the lift lobby on the ground floor?',
    reason: 'Leaving Bedroom 2 means crossing its 5 cm sill; the ground floor is then reached by the lift or by the stairs.',
    start: 'bedroom2',
    startDetail: 'middle of Bedroom 2',
    intermediate: [],
    end: 'lift-lobby',
    endDetail: 'in front of the lift',
  },
  {
    text: 'Can [Agent] move from the lift lobby to the living room?',
    reason: 'From the lift lobby through the 1.20 m door into the entrance hall and the 1.20 m door into the living room; neither has a sill.',
    start: 'lift-lobby',
    startDetail: 'in front of the lift',
    intermediate: [],
    end: 'living',
    endDetail: 'middle of the living room',
  },
];
