// Each command loads its own code when it runs (`await import`, where the bundle is split), so a
// command starts without the others' libraries — three.js and the mesh loaders, zod's schemas,
// PouchDB: `help` and `score --compat reference` load none of them.
import { favourShortRuns } from './jit.ts';
import { existsSync, readFileSync } from 'node:fs';
import { formatProblem, hasBlocking, hasErrors, type Problem } from '../core/problems.ts';
import type { Project } from '../core/project.ts';
import { CliError, InputError, readInputText, readJsonFiles, readTree, writeFiles } from './files.ts';
import { baselineCommand, scoreCommand } from './score.ts';
import { formatPlan, formatStats } from './tables.ts';
import { optionsByCommand, refuseUnknownOptions } from './options.ts';
import { guardTerminal } from './terminal.ts';
import { USAGE } from './usage.ts';

/** Flags followed by a value (`--out dir`); the others are switches unless written `--flag=value`. */
const VALUE_FLAGS = new Set([
  'out',
  'mesh',
  'graph',
  'agents',
  'up',
  'scale',
  'fps',
  'fov',
  'eye',
  'size',
  'gt',
  'pred',
  'compat',
  'judge',
  'weights',
  'bootstrap',
  'seed',
  'level',
  'averaging',
  'verdicts',
  'cache',
  'tau',
  'subsets',
  'frames',
  'inputs',
  'endpoint',
  'model',
  'concurrency',
  'retries',
  'limit',
  'scenes',
  'to',
  'from',
  'password',
  'member',
  'lead',
  'port',
  'host',
  'data',
  'admin',
  'origin',
  'session-timeout',
  'budget',
  'balance',
  'ratios',
  'format',
  'manifest',
  'with',
  'scans',
  'shard',
]);

/** `flags` keeps a flag's last value; `lists` every value of a flag given more than once (`--member a --member b`). */
interface Args {
  command: string;
  positional: string[];
  flags: Map<string, string | true>;
  lists: Map<string, string[]>;
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const [command = 'help', ...rest] = argv;
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const put = (k: string, v: string) => {
    flags.set(k, v);
    lists.set(k, [...(lists.get(k) ?? []), v]);
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const k = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const v = eq < 0 ? undefined : a.slice(eq + 1);
      if (v !== undefined) put(k, v);
      else if (VALUE_FLAGS.has(k)) put(k, rest[++i] ?? '');
      else flags.set(k, true);
    } else positional.push(a);
  }
  return { command, positional, flags, lists, json: flags.has('json') };
}

async function load(dir: string | undefined): Promise<{ project: Project | null; problems: Problem[] }> {
  if (!dir) throw new CliError('missing <release-dir>');
  const { readRelease } = await import('../formats/capnav/read.ts');
  return readRelease(readJsonFiles(dir));
}

/** Read a release that must be usable; fatal problems go to stderr and stop the command. */
async function loadUsable(dir: string | undefined): Promise<Project> {
  const { project, problems } = await load(dir);
  if (!project || hasBlocking(problems)) {
    for (const p of problems.filter((q) => q.severity === 'fatal')) process.stderr.write(formatProblem(p) + '\n');
    throw new InputError(`${dir} cannot be read as a CapNav release (run "validate" for every problem)`);
  }
  return project;
}

const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : text + '\n');

const flag = (args: Args, k: string): string | undefined => {
  const v = args.flags.get(k);
  return typeof v === 'string' ? v : undefined;
};

const OPTIONS = optionsByCommand(USAGE);

/** The scan commands' arguments (suggest, drive). */
const scanArgs = (args: Args) => ({
  mesh: flag(args, 'mesh'),
  graph: flag(args, 'graph'),
  agents: flag(args, 'agents'),
  up: flag(args, 'up'),
  scale: flag(args, 'scale'),
  json: args.json,
});
const printed = (text: string): number => {
  out(text);
  return 0;
};

/** Every command, by name: what it reads from the arguments and runs. */
const COMMANDS: Record<string, (args: Args) => Promise<number>> = {
  stats: async (args) => {
    const { datasetStats } = await import('../core/stats.ts');
    const stats = datasetStats(await loadUsable(args.positional[0]));
    out(args.json ? JSON.stringify(stats, null, 2) : formatStats(stats));
    return 0;
  },
  plan: async (args) => {
    const { planScene } = await import('../core/plan.ts');
    const project = await loadUsable(args.positional[0]);
    const scenes = Object.fromEntries(project.scenes.map((s) => [s.id, { questions: planScene(s) }]));
    out(args.json ? JSON.stringify({ scenes }, null, 2) : formatPlan(scenes));
    return 0;
  },
  validate: async (args) => {
    const { problems } = await load(args.positional[0]);
    const errors = problems.filter((p) => p.severity !== 'warning').length;
    const warnings = problems.length - errors;
    if (args.json) out(JSON.stringify({ ok: !hasErrors(problems), errors, warnings, problems }, null, 2));
    else out([...problems.map(formatProblem), `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`].join('\n'));
    return hasErrors(problems) ? 1 : 0;
  },
  convert: async (args) => {
    const target = args.flags.get('out');
    if (typeof target !== 'string' || !target) throw new CliError('convert needs --out <dir>');
    const { writeRelease } = await import('../formats/capnav/write.ts');
    const files = writeRelease(await loadUsable(args.positional[0]));
    writeFiles(target, files);
    process.stderr.write(`wrote ${files.length} files to ${target}\n`);
    return 0;
  },
  suggest: async (args) => (await import('./suggest.ts')).suggestCommand({ ...scanArgs(args), shard: flag(args, 'shard') }).then(printed),
  drive: async (args) => (await import('./drive.ts')).driveCommand({ ...scanArgs(args), shard: flag(args, 'shard') }).then(printed),
  tour: async (args) => {
    const { tourCli } = await import('./tour.ts');
    const { text, code } = await tourCli({
      mesh: flag(args, 'mesh'),
      graph: flag(args, 'graph'),
      out: flag(args, 'out'),
      fps: flag(args, 'fps'),
      fov: flag(args, 'fov'),
      eye: flag(args, 'eye'),
      size: flag(args, 'size'),
      up: flag(args, 'up'),
      gt: flag(args, 'gt'),
      scans: flag(args, 'scans'),
      shard: flag(args, 'shard'),
      frames: flag(args, 'frames'),
    });
    out(text);
    return code;
  },
  score: async (args) => {
    favourShortRuns();
    const a = {
      gt: flag(args, 'gt'),
      pred: flag(args, 'pred'),
      out: flag(args, 'out'),
      compat: flag(args, 'compat'),
      judge: flag(args, 'judge'),
      weights: flag(args, 'weights'),
      bootstrap: flag(args, 'bootstrap'),
      seed: flag(args, 'seed'),
      level: flag(args, 'level'),
      averaging: flag(args, 'averaging'),
      verdicts: flag(args, 'verdicts'),
      cache: flag(args, 'cache'),
      json: args.json,
      acceptUnjudged: args.flags.has('accept-unjudged'),
      table2: args.flags.has('table2'),
      shard: flag(args, 'shard'),
    };
    const { text, code } = await scoreCommand(a);
    out(text);
    return code;
  },
  merge: async (args) => {
    const { mergeCommand } = await import('./merge.ts');
    const { text, code } = await mergeCommand({
      paths: args.positional,
      out: flag(args, 'out'),
      gt: flag(args, 'gt'),
      json: args.json,
      acceptUnjudged: args.flags.has('accept-unjudged'),
      table2: args.flags.has('table2'),
    });
    out(text);
    return code;
  },
  'score-qa': async (args) => {
    const { scoreQaCommand } = await import('./scoreQa.ts');
    out(
      await scoreQaCommand({
        gt: flag(args, 'gt'),
        pred: args.lists.get('pred') ?? [],
        tau: flag(args, 'tau'),
        averaging: flag(args, 'averaging'),
        bootstrap: flag(args, 'bootstrap'),
        seed: flag(args, 'seed'),
        out: flag(args, 'out'),
        json: args.json,
        verdicts: flag(args, 'verdicts'),
        judge: flag(args, 'judge'),
        cache: flag(args, 'cache'),
        subsets: flag(args, 'subsets'),
      }),
    );
    return 0;
  },
  augment: async (args) => {
    const [{ augmentCommand }, { nameList }] = await Promise.all([import('./augment.ts'), import('./evalInputs.ts')]);
    const text = augmentCommand(await loadUsable(args.positional[0]), {
      out: flag(args, 'out'),
      agents: nameList(args.lists.get('agents')),
      budget: flag(args, 'budget'),
      seed: flag(args, 'seed'),
      balance: nameList(args.lists.get('balance')),
      json: args.json,
    });
    return printed(text);
  },
  'eval-inputs': async (args) => {
    const { evalInputsCommand, nameList } = await import('./evalInputs.ts');
    process.stderr.write(
      (await evalInputsCommand({
        gt: flag(args, 'gt'),
        frames: flag(args, 'frames'),
        out: flag(args, 'out'),
        agents: nameList(args.lists.get('agents')),
        scenes: nameList(args.lists.get('scenes')),
        with: flag(args, 'with'),
        mesh: flag(args, 'mesh'),
        scans: flag(args, 'scans'),
        up: flag(args, 'up'),
        shard: flag(args, 'shard'),
      })) + '\n',
    );
    return 0;
  },
  'run-model': async (args) => {
    const [{ runModelCommand }, { nameList }] = await Promise.all([import('./runModel.ts'), import('./evalInputs.ts')]);
    const { text, code } = await runModelCommand({
      gt: flag(args, 'gt'),
      inputs: flag(args, 'inputs'),
      endpoint: flag(args, 'endpoint'),
      model: flag(args, 'model'),
      frames: flag(args, 'frames'),
      out: flag(args, 'out'),
      concurrency: flag(args, 'concurrency'),
      retries: flag(args, 'retries'),
      limit: flag(args, 'limit'),
      cache: flag(args, 'cache'),
      agents: nameList(args.lists.get('agents')),
      scenes: nameList(args.lists.get('scenes')),
      json: args.json,
      shard: flag(args, 'shard'),
    });
    out(text);
    return code;
  },
  split: async (args) => {
    const { splitCommand } = await import('./split.ts');
    return printed(splitCommand(args.positional[0], { out: flag(args, 'out'), ratios: flag(args, 'ratios'), seed: flag(args, 'seed') }));
  },
  leakage: async (args) => {
    const { leakageCommand } = await import('./split.ts');
    const { text, code } = leakageCommand(args.positional[0], args.positional.slice(1));
    out(text);
    return code;
  },
  'train-export': async (args) => {
    const { trainExportCommand } = await import('./trainExport.ts');
    const gt = flag(args, 'gt');
    const text = await trainExportCommand(await loadUsable(gt), gt!, {
      tasks: args.positional[0],
      frames: flag(args, 'frames'),
      format: flag(args, 'format'),
      out: flag(args, 'out'),
      manifest: flag(args, 'manifest'),
    });
    return printed(text);
  },
  reward: async (args) => {
    const pred = flag(args, 'pred');
    if (!pred) throw new CliError('reward needs --pred <answers.jsonl> (or --pred - for standard input)');
    const [{ rewardCommand }, project] = await Promise.all([import('./reward.ts'), loadUsable(flag(args, 'gt'))]);
    // `-`: the answers come on standard input (a pipe from a training loop), read as sent.
    const text = pred === '-' ? readFileSync(0, 'utf8') : readInputText(pred, 'answers');
    return printed(rewardCommand(project, { path: pred === '-' ? 'stdin' : pred, text }, flag(args, 'weights')));
  },
  baseline: async (args) => {
    process.stderr.write((await baselineCommand(args.positional[0], { gt: flag(args, 'gt'), out: flag(args, 'out'), seed: flag(args, 'seed') })) + '\n');
    return 0;
  },
  'team-server': async (args) => {
    return (await import('./teamServer.ts')).teamServerCommand({
      port: flag(args, 'port'),
      host: flag(args, 'host'),
      data: flag(args, 'data'),
      inMemory: args.flags.has('in-memory'),
      admin: flag(args, 'admin'),
      origins: args.lists.get('origin') ?? [],
      sessionTimeout: flag(args, 'session-timeout'),
    });
  },
  team: async (args) => {
    const [sub, url, name] = args.positional;
    const { addUserCommand, createProjectCommand } = await import('./team.ts');
    if (sub === 'add-user') out(await addUserCommand(url, name, flag(args, 'password'), process.env));
    else if (sub === 'create-project') out(await createProjectCommand(url, args.lists.get('member') ?? [], process.env, args.lists.get('lead') ?? []));
    else throw new CliError(`team needs add-user or create-project\n\n${USAGE}`);
    return 0;
  },
  push: async (args) => {
    const { pushCommand } = await import('./couch.ts');
    const project = await loadUsable(args.positional[0]);
    const { text, code } = await pushCommand(project, flag(args, 'to'), process.env);
    out(text);
    return code;
  },
  pull: async (args) => {
    const target = flag(args, 'out');
    if (!target) throw new CliError('pull needs --out <release-dir>');
    const { pullCommand } = await import('./couch.ts');
    const { text, code, files } = await pullCommand(flag(args, 'from'), process.env);
    if (!files.length) {
      out(text);
      return code;
    }
    // Files of another pull (a scene since removed) would be read back as part of this one.
    const written = new Set(files.map((f) => f.path));
    const stale = existsSync(target)
      ? readTree(target, ['.json'], 'release file')
          .filter((f) => !written.has(f.path))
          .map((f) => f.path)
      : [];
    writeFiles(target, files);
    out(
      text +
        `wrote ${files.length} files to ${target}\n` +
        stale.map((f) => `note: ${f} was already in ${target} and is not part of the pulled project (left as it was)\n`).join(''),
    );
    return code;
  },
  help: async () => {
    out(USAGE);
    return 0;
  },
  '--help': async () => {
    out(USAGE);
    return 0;
  },
  '-h': async () => {
    out(USAGE);
    return 0;
  },
};

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  refuseUnknownOptions(args.command, args.flags.keys(), OPTIONS);
  const command = Object.hasOwn(COMMANDS, args.command) ? COMMANDS[args.command] : undefined;
  if (!command) throw new CliError(`unknown command "${args.command}"\n\n${USAGE}`);
  return command(args);
}

// Text from the inputs reaches the terminal: its control characters are shown, never obeyed.
guardTerminal(process.stdout);
guardTerminal(process.stderr);
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (e) {
  if (e instanceof CliError) {
    process.stderr.write(`traversa: ${e.message}\n`);
    process.exitCode = 2;
  } else if (e instanceof InputError) {
    process.stderr.write(`traversa: ${e.message}\n`);
    process.exitCode = 1;
  } else throw e;
}
