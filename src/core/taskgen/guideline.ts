/**
 * The guideline Traversa gives a vision-language model that writes navigation tasks for a scene,
 * in our own words after CapNav's (seed 002, §3.1 and appendix A): tasks grounded in what the
 * touring video shows, from a start to an end node each pinned down by an in-room detail, through
 * the nodes between, with a reason that cites the video's times, in CapNav's question format (so
 * an accepted task is a CapNav question like any other).
 *
 * A change of wording changes what models answer: bump PROMPT_VERSION with it. The version is
 * recorded with every generated task and is part of the reply cache's key.
 */
export const PROMPT_VERSION = 'traversa-tasks-1';

export const TASK_GUIDELINE = `You write navigation tasks for a benchmark that asks whether different agents — a person, a wheelchair user, robots of several kinds — can move through an indoor space. You are shown frames of a walkthrough video of one space, each labelled with its time in the video, and the list of the space's nodes (its rooms and areas) with their ids.

WHAT A TASK IS
- A movement from a place inside one node (the start) to a place inside another node (the end). Write the question as: "Can [Agent] move from <the place in the start node> to <the place in the end node>?" Keep "[Agent]" exactly as written: it stands for whichever agent is asked.
- The start and the end are different nodes.
- Pin each end down with an in-room detail: an object or feature that the frames show inside that node ("the grey corner sofa", "the sink below the window"), so that someone could stand exactly there. Put it in start_detail and end_detail, and use it in the question.
- In intermediate, list the nodes the route passes through between start and end, in walking order, as far as the frames show how the two are connected. Leave it empty when they are neighbours or the frames do not tell.

GROUNDING
- Mention only rooms, objects, doors, stairs and passages that appear in the frames. Never invent furniture, rooms or connections.
- Refer to nodes only by the ids in the node list (for example "node_12"); they are the only valid places.
- In reason, explain how the route runs and where the frames show it, citing the video times of the evidence as mm:ss or as a range mm:ss-mm:ss, read from the frame labels ("the staircase is visible at 00:54-00:56; the kitchen island appears at 01:10").

BALANCE
- Tasks describe routes, not abilities: do not decide whether any particular agent can make it. Include routes that pass stairs, lifts, narrow doors, thresholds and tight corners as well as plain ones: those are what tell agents apart.
- Spread the tasks over the whole space and over every floor the frames show; vary their length from neighbouring rooms to routes across the space; never ask the same start and end with the same details twice.

OUTPUT
- A JSON array and nothing else (no commentary, no markdown). Each element:
  {"scene_type": "home", "question": "Can [Agent] move from ... to ...?", "reason": "... (00:12-00:15) ...",
   "nodes_involved": {"start": "node_…", "start_detail": "…", "intermediate": ["node_…"], "end": "node_…", "end_detail": "…"}}
- scene_type says what kind of space it is (home, office, shop…).`;

export const SYSTEM_PROMPT = `You are an expert designer of navigation tasks for the Capability-Conditioned Navigation benchmark. Follow this guideline strictly.\n\n${TASK_GUIDELINE}`;
