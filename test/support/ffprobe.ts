import { execFileSync, execSync } from 'node:child_process';

/**
 * Debian's ffprobe for the video tests: installed with apt-get (ffmpeg) when missing, as root or
 * through sudo without a password, as ensure-chromium.mjs installs Chromium. Returns the reason
 * when it cannot be had (the test then skips, saying so).
 */
export function ensureFfprobe(): { ok: true } | { ok: false; reason: string } {
  const has = () => {
    try {
      execFileSync('ffprobe', ['-version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (has()) return { ok: true };
  const sudo = process.getuid?.() === 0 ? '' : 'sudo -n ';
  try {
    console.log("ffprobe is missing; installing Debian's ffmpeg for the video tests…");
    execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ffmpeg >/dev/null`, {
      stdio: 'inherit',
      timeout: 600_000,
    });
  } catch (e) {
    return {
      ok: false,
      reason: `ffprobe is missing and Debian's ffmpeg could not be installed (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); install it with "apt-get install -y ffmpeg"`,
    };
  }
  return has() ? { ok: true } : { ok: false, reason: 'ffmpeg was installed but ffprobe does not run' };
}

export interface Probed {
  codec: string;
  width: number;
  height: number;
  fps: number;
  frames: number;
  durationS: number;
}

/** What ffprobe reads of a video's first video stream, frames counted by decoding them. */
export function ffprobe(path: string): Probed {
  const out = JSON.parse(
    execFileSync(
      'ffprobe',
      [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-count_frames',
        '-show_entries',
        'stream=codec_name,width,height,avg_frame_rate,nb_read_frames:format=duration',
        '-of',
        'json',
        path,
      ],
      { encoding: 'utf8' },
    ),
  ) as {
    streams: { codec_name: string; width: number; height: number; avg_frame_rate: string; nb_read_frames: string }[];
    format: { duration: string };
  };
  const s = out.streams[0]!;
  const [num, den] = s.avg_frame_rate.split('/').map(Number) as [number, number];
  return { codec: s.codec_name, width: s.width, height: s.height, fps: num / den, frames: Number(s.nb_read_frames), durationS: Number(out.format.duration) };
}
