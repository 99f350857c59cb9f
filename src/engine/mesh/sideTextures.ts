import { Loader, Texture, TextureLoader, type LoadingManager, type Material } from 'three';
import type { SideFiles } from './files.ts';
import { notPicked, refKind } from './refs.ts';
import { disposeTexture } from './objectStats.ts';

export interface TextureEvents {
  requested?: () => void;
  settled?: () => void;
}

/** Why a texture has no image: not among the given files, or the image would not decode. */
type Gap = 'missing' | 'failed';
const GAP = 'traversaTextureGap';

/** Decoding images needs a DOM image element; Node (tests, CLI) has none. */
const canDecodeImages = () => typeof document !== 'undefined';

/**
 * The texture loader an .mtl's maps go through (registered on its LoadingManager). It resolves
 * names to the given side files, says which are missing, and lets the caller wait until every
 * image has settled. Where images cannot be decoded (Node) textures keep their name but no image.
 */
export class SideTextureLoader extends Loader<Texture> {
  private pending: Promise<void>[] = [];
  private said = new Set<string>();

  constructor(
    manager: LoadingManager,
    private sides: SideFiles,
    private warn: (warning: string) => void,
    private events: TextureEvents = {},
    /** Where the .mtl names a URL (`line 3 (map_Kd)`), for the warning about an address. */
    private where: (url: string) => string = () => 'a texture map',
  ) {
    super(manager);
  }

  /** MTLLoader uses the returned texture at once, and the image arrives later. */
  override load(url: string, onLoad?: (t: Texture) => void, onProgress?: (e: ProgressEvent) => void, onError?: (err: unknown) => void): Texture {
    const kind = refKind(url);
    if (kind === 'address') {
      if (!this.said.has(url)) this.warn(`${notPicked(this.where(url), url)} (loaded without that texture)`);
      this.said.add(url);
      return mark(new Texture(), url.slice(0, 120), 'missing');
    }
    // An inline data: image is the file's own bytes; a name must be a picked file.
    const side = kind === 'name' ? this.sides.find(url) : undefined;
    if (kind === 'name' && !side) {
      if (!this.said.has(url)) this.warn(`references ${url}, which was not provided (loaded without that texture)`);
      this.said.add(url);
      return mark(new Texture(), url, 'missing');
    }
    const name = side?.name ?? 'an inline (data:) image';
    if (!canDecodeImages()) {
      const t = new Texture();
      t.name = name;
      return t;
    }
    let texture!: Texture;
    this.events.requested?.();
    this.pending.push(
      new Promise<void>((resolve) => {
        texture = new TextureLoader(this.manager).load(
          url,
          (t) => {
            this.settle();
            resolve();
            onLoad?.(t);
          },
          onProgress,
          (err) => {
            this.warn(`could not decode ${name} as an image (loaded without that texture)`);
            mark(texture, name, 'failed');
            this.settle();
            resolve();
            onError?.(err);
          },
        );
      }),
    );
    texture.name = name;
    return texture;
  }

  private settle() {
    this.events.settled?.();
  }

  /** Resolves when every image requested so far has loaded or failed. */
  async allSettled(): Promise<void> {
    await Promise.all(this.pending);
  }
}

function mark(t: Texture, name: string, gap: Gap): Texture {
  t.name = name;
  t.userData[GAP] = gap;
  return t;
}

/** Take textures without an image off their materials, so nothing samples an empty texture. */
export function dropTextureGaps(materials: Iterable<Material>): void {
  for (const m of materials) {
    const slots = m as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(slots)) {
      const t = value as Texture | null;
      if (!t?.isTexture || !t.userData[GAP]) continue;
      slots[key] = null;
      disposeTexture(t);
      m.needsUpdate = true;
    }
  }
}
