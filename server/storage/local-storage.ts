import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_WIDTHS, type EncodedImage, type ImageWidth } from './image';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface StoredMeta {
  width: number;
  height: number;
}

/**
 * Leftovers of other instances are removed only once this old: several instances over one
 * PostgreSQL share DATA_DIR/uploads, and a fresh .tmp-* folder may be another instance's upload
 * being written right now (R9). An upload URL lives 15 minutes, so its single-use marker is
 * useless after that too.
 */
export const LEFTOVER_AGE_MS = 60 * 60_000;

/**
 * Uploaded images on local disk, under DATA_DIR/uploads/<uuid>/<width>.webp.
 * A folder appears by one rename, so a crash never leaves a half-written object that could be
 * referenced; leftovers of interrupted uploads (.tmp-*) and spent single-use markers are swept.
 */
export class LocalObjectStorage {
  constructor(private readonly root: string) {}

  /**
   * `exclusive`: this process alone uses the folder (PGlite locks DATA_DIR), so every .tmp-* at
   * start is a crashed upload's and goes at once; shared, only old leftovers go.
   */
  async init(exclusive = false): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await this.sweep(exclusive ? 0 : LEFTOVER_AGE_MS);
  }

  /** Removes .tmp-* folders older than `tmpAgeMs` and single-use markers past the URL's life. */
  async sweep(tmpAgeMs = LEFTOVER_AGE_MS, now = Date.now()): Promise<void> {
    for (const name of await readdir(this.root)) {
      const tmp = name.startsWith('.tmp-');
      if (!tmp && !name.endsWith('.claimed')) continue;
      const file = path.join(this.root, name);
      try {
        if (now - (await stat(file)).mtimeMs < (tmp ? tmpAgeMs : LEFTOVER_AGE_MS)) continue;
        await rm(file, { recursive: true, force: true });
      } catch {
        /* removed meanwhile by another instance */
      }
    }
  }

  isValidId(id: string): boolean {
    return ID.test(id);
  }

  private dir(id: string): string {
    if (!ID.test(id)) throw new Error('invalid object id');
    return path.join(this.root, id);
  }

  async exists(id: string): Promise<boolean> {
    if (!ID.test(id)) return false;
    try {
      await stat(path.join(this.dir(id), 'meta.json'));
      return true;
    } catch {
      return false;
    }
  }

  /** Claims the id once: a second claim (a replayed upload URL) fails. */
  async claim(id: string): Promise<boolean> {
    try {
      await writeFile(path.join(this.root, `${id}.claimed`), '', { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  }

  async isClaimed(id: string): Promise<boolean> {
    try {
      await stat(path.join(this.root, `${id}.claimed`));
      return true;
    } catch {
      return false;
    }
  }

  async save(id: string, image: EncodedImage): Promise<void> {
    const tmp = path.join(this.root, `.tmp-${id}-${randomUUID()}`);
    await mkdir(tmp);
    try {
      for (const v of image.variants) await writeFile(path.join(tmp, `${v.width}.webp`), v.data);
      const meta: StoredMeta = { width: image.width, height: image.height };
      await writeFile(path.join(tmp, 'meta.json'), JSON.stringify(meta));
      await rename(tmp, this.dir(id));
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      throw err;
    }
  }

  async meta(id: string): Promise<StoredMeta | undefined> {
    try {
      return JSON.parse(await readFile(path.join(this.dir(id), 'meta.json'), 'utf8')) as StoredMeta;
    } catch {
      return undefined;
    }
  }

  /** When the object was stored (ms), or undefined when it does not exist. */
  async savedAt(id: string): Promise<number | undefined> {
    try {
      return (await stat(path.join(this.dir(id), 'meta.json'))).mtimeMs;
    } catch {
      return undefined;
    }
  }

  /** Deletes an object (an image no update uses any more). */
  async remove(id: string): Promise<void> {
    if (!ID.test(id)) return;
    await rm(this.dir(id), { recursive: true, force: true });
  }

  async read(
    id: string,
    width: ImageWidth = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!,
  ): Promise<Buffer | undefined> {
    try {
      return await readFile(path.join(this.dir(id), `${width}.webp`));
    } catch {
      return undefined;
    }
  }
}
