/** The command line's usage text: `help` prints it, and each command's accepted options are read from it (options.ts). */
export const USAGE = `Traversa command line

  stats <release-dir> [--json]        dataset statistics (CapNav Table 1 definitions)
  plan <release-dir> [--json]         the labelling work list of every question
  validate <release-dir> [--json]     every problem, by file and location; exit 1 on errors
  convert <release-dir> --out <dir>   read a release and write it back in the release layout
  suggest --mesh <file> --graph <graph.json> [--agents <agent_profile.json>] [--up y|z] [--scale N] [--json]
        [--shard i/N]
                                      suggested traversability per agent and edge, measured in the scan;
                                      --shard i/N decides the graph's edges i, i+N, … (from 0) and prints
                                      them as JSON for merge
  drive --mesh <file> --graph <graph.json> [--agents <agent_profile.json>] [--up y|z] [--scale N] [--json]
        [--shard i/N]
                                      every agent driven over every edge by the motion planner:
                                      reached, or stopped with the measured reason; --shard as suggest's
  tour --mesh <file> --graph <graph.json> --out <video.mp4> [--fps 2] [--fov 75] [--eye 1.5] [--size 640x480] [--up y|z]
                                      the automatic touring video of the scan through every node, rendered
                                      headless in Chromium with the studio's code; writes the video (MP4 H.264,
                                      or WebM VP9) and <video>.poses.json (camera poses, nodes in view)
  tour --gt <release-dir> --scans <dir> --out <dir> [--shard i/N] [--frames 16,32,64,1fps] [--fps 2] [--fov 75]
        [--eye 1.5] [--size 640x480] [--up y|z]
                                      the tour of every scene of the release that has a scan
                                      <dir>/<SCENE>.glb|.gltf|.ply|.obj, in one Chromium: videos/<SCENE>.mp4
                                      and .poses.json under --out (the release layout), with --frames the
                                      frame sets frames/<SCENE>/<budget>/; writes tours.json (the scenes
                                      toured and not, in the release's order). --shard i/N tours the scenes
                                      i, i+N, … (from 0) and writes shard.json, for merge
  score --gt <release-dir> --pred <results-dir> --out <dir> [--compat reference] [--judge rule|none|http]
        [--verdicts <file>] [--cache <file>] [--weights λc,λp,λt,λr] [--bootstrap N] [--seed N]
        [--level 0.95] [--averaging micro|macro] [--accept-unjudged] [--table2] [--shard i/N] [--json]
                                      CapNav scores of model predictions (paper definitions, or the
                                      released scorer with --compat reference); writes
                                      scored_per_record.jsonl and scored_summary.json into --out.
                                      --judge http reads TRAVERSA_JUDGE_URL, TRAVERSA_JUDGE_MODEL, TRAVERSA_JUDGE_KEY.
                                      When the judge fails on some records, RV and the composite are
                                      withheld and score exits 1 unless --accept-unjudged.
                                      --table2 also writes the paper's Table 2 (models × Feas-F1, PV,
                                      RTA, RV, CapNav, per-agent CapNav) as table2.csv and table2.tex.
                                      --shard i/N scores the release's scenes i, i+N, i+2N, … (from 0) and
                                      writes scored_shard.json into --out, for merge
  merge <shard output>... --out <dir|file> [--gt <release-dir>] [--accept-unjudged] [--table2] [--json]
                                      the outputs of a run's N shards (each shard's --out folder or printed
                                      file) put together into what the run writes unsharded, byte for
                                      byte; refuses shards of different runs, a shard twice or one missing.
                                      Score shards need --gt, the release they scored; tour shards' files
                                      are copied into --out with tours.json
  augment <release-dir> --out <tasks.jsonl> [--agents A,B] [--budget N] [--seed N] [--balance answers,obstacles] [--json]
                                      tasks for training (CapNav §5): every ordered pair of connected nodes
                                      per agent with the labels' answer, a shortest feasible route and what
                                      blocks it where infeasible; --budget N samples N per scene and agent,
                                      --balance evens out yes/no answers and obstacle types
  split <tasks.jsonl> --out <dir> [--ratios 0.8,0.1,0.1] [--seed N]
                                      augment's tasks in train/val/test by scene (no scene in two splits),
                                      each split's mix of agents, answers and obstacles kept close to the
                                      whole's; writes train.jsonl, val.jsonl, test.jsonl and manifest.json
                                      (scenes, counts by stratum, SHA-256 of each file)
  leakage <manifest.json> <file-or-dir>...
                                      refuse training data naming a held-out (val or test) scene, by
                                      file and line; exit 1 when any does
  train-export <tasks.jsonl> --gt <release-dir> --frames 16|32|64|1fps|video --format openai|sharegpt --out <dir>
        [--manifest <split-manifest.json>]
                                      the tasks as fine-tuning data: train.jsonl (OpenAI-style messages with
                                      image_url parts, or LLaVA/ShareGPT conversations with <image> tokens),
                                      the B.1 prompt and the answer in the runner's JSON format, the frames
                                      copied to frames/ (--frames video: the touring video, a video_url part
                                      or a <video> token, copied to videos/); with --manifest, held-out
                                      scenes are refused
  reward --gt <release-dir> --pred <answers.jsonl|-> [--weights λc,λp,λt,λr]
                                      a reward per answer for RL: one JSON line each, in input order, with
                                      the terms the benchmark scores on its record (feasibility, path
                                      validity, RTA, RV by the rule judge) and their weighted mean
  eval-inputs --gt <release-dir> --frames 16|32|64|1fps --out <dir> [--agents A,B] [--scenes S,T]
        [--with depth,map,graph] [--mesh <scan> | --scans <dir>] [--up y|z] [--shard i/N]
                                      the evaluation prompt (CapNav B.1) of every question × agent,
                                      hallucinated questions left out, with the frame set it shows:
                                      manifest.json, inputs/<SCENE>/<AGENT>/q<NN>.json, frames/.
                                      --with adds depth frames (from the scan at the tour's poses,
                                      videos/<SCENE>.poses.json), top-down maps with node markers,
                                      the topological graph in the prompt; the scan is --mesh (one
                                      scene) or <dir>/<SCENE>.glb|.gltf|.ply|.obj. --shard i/N exports
                                      the chosen scenes i, i+N, … (an export of its own, plus shard.json)
  run-model (--gt <release-dir> --frames 16|32|64|1fps | --inputs <eval-inputs-dir>) --endpoint <url>
        --model <name> --out <results-dir> [--concurrency 4] [--retries 3] [--agents A,B] [--scenes S,T]
        [--limit N] [--cache <dir>] [--shard i/N] [--json]
                                      ask an OpenAI-compatible chat endpoint (POST <url>/chat/completions,
                                      frames as JPEG data URLs; key from TRAVERSA_VLM_KEY) and write the
                                      predictions for score: <out>/<model>_<frames>/<SCENE>/<SCENE>_<AGENT>.json
                                      and run_summary.json (tokens, counts, time). Answers are cached in
                                      <out>/.cache (or --cache): rerun to resume. --shard i/N asks about the
                                      inputs' scenes i, i+N, … and writes shard.json for merge
  baseline random|oracle --gt <release-dir> --out <file.jsonl> [--seed N]
                                      random-walk (lower bound) or ground-truth (upper bound) predictions
  score-qa --gt <bundle-dir|items.json|items.jsonl|project.traversa.json> --pred <answers.jsonl|dir> [--pred …]
        [--tau N] [--averaging micro|macro] [--bootstrap N] [--seed N] [--json] [--out <dir>]
        [--verdicts <trail-scores.json> | --judge http [--cache <file>]] [--subsets source|scene|capability|task]
                                      models' answers to QA items (one {"id", "answer", "model", "steps"}
                                      per line), Embodied4C scores per capability; each --pred file is
                                      its own model. With --verdicts or --judge http, FoMER's reasoning
                                      accuracy of the answers' steps: RA per criterion, FA, macro over
                                      subsets. --out writes qa_scores.json, qa_scored_items.jsonl and
                                      qa_reasoning_items.jsonl

Team server and sync (credentials in the URL, http://alice:pw@host:5984/db, or in
TRAVERSA_COUCH_USER and TRAVERSA_COUCH_PASSWORD):
  team-server [--port 5984] [--host 127.0.0.1] [--data <dir> (default ./team-data) | --in-memory]
        [--admin <user>:<password>] [--origin <url>]... [--session-timeout <s> (default 600)]
                                      a CouchDB-compatible server (pouchdb-server behind Traversa's front:
                                      members only, admin-only databases and accounts, restarted if it
                                      stops; browsers from the studio's origins unless --origin; a
                                      studio's sign-in lasts --session-timeout seconds from its last use)
  team add-user <couch-url> <name> [--password <pw>]
                                      create a user (a generated password is shown once)
  team create-project <couch-url>/<db> [--lead <name>]... --member <name> [--member <name>]...
                                      create a project database, its leads (graph, scenes, profiles,
                                      taxonomy, adjudication), annotators and its validation
  push <release-dir> --to <couch-url>/<db>
                                      write the release's records, signed as you; exit 1 if any is refused
  pull --from <couch-url>/<db> --out <release-dir>
                                      read the project's records and write the release; conflicts
                                      and bad records are listed by id
`;
