import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_WIDTHS, type EncodedImage, type ImageWidth } from './image';
import {
  LEFTOVER_AGE_MS,
  OBJECT_ID as ID,
  type ImageRestore,
  type ObjectStorage,
  type StoredMeta,
} from './object-storage';

/**
 * Uploaded images on local disk, under DATA_DIR/uploads/<uuid>/<width>.webp.
 * A folder appears by one rename, so a crash never leaves a half-written object that could be
 * referenced; leftovers of interrupted uploads (.tmp-*) and spent single-use markers are swept.
 */
export class LocalObjectStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  readonly direct = undefined;
  constructor(private readonly root: string) {}

  close(): void {}

  /**
   * `exclusive`: this process alone uses the folder (PGlite locks DATA_DIR), so every .tmp-* at
   * start is a crashed upload's and goes at once; shared, only old leftovers go.
   */
  async init(exclusive = false): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await this.sweep(exclusive ? 0 : LEFTOVER_AGE_MS);
  }

  /**
   * Removes .tmp-* folders older than `tmpAgeMs` and single-use markers past the URL's life.
   * Several instances over one PostgreSQL may share DATA_DIR/uploads: a fresh .tmp-* folder may be
   * another instance's upload being written right now.
   */
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

  /** Files of the image store, except uploads being written (.tmp-*) and spent markers. */
  async listFiles(): Promise<string[]> {
    if (!existsSync(this.root)) return [];
    const out: string[] = [];
    const walk = async (dir: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (entry.name.startsWith('.tmp-') || entry.name.endsWith('.claimed')) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) out.push(path.relative(this.root, full).split(path.sep).join('/'));
      }
    };
    await walk(this.root);
    return out.sort();
  }

  async readFile(name: string): Promise<Buffer | undefined> {
    return readFile(path.join(this.root, name)).catch(() => undefined);
  }

  /** Files go to a folder beside the live one, swapped in by two renames at commit. */
  async beginRestore(): Promise<ImageRestore> {
    const root = this.root;
    const staging = `${root}.restoring-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    return {
      async write(name, data) {
        const target = path.join(staging, name);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, data);
      },
      async commit() {
        const old = `${root}.replaced-${process.pid}`;
        if (existsSync(root)) await rename(root, old);
        await rename(staging, root);
        await rm(old, { recursive: true, force: true });
      },
      abort: () => rm(staging, { recursive: true, force: true }),
    };
  }
}
