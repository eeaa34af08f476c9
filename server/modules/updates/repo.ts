import { desc, eq } from 'drizzle-orm';
import type { DeliveryUpdate, UpdateCreate, UpdateEdit } from '@shared/schemas/update';
import type { DbOrTx } from '../../db/client';
import { deliveryUpdates } from '../../db/schema';
import { IMAGE_WIDTHS } from '../../storage/image';

export type UpdateRow = typeof deliveryUpdates.$inferSelect;

/** Our uploads exist at several widths: the feed gets a srcset and the intrinsic size. */
export function toDeliveryUpdate(r: UpdateRow): DeliveryUpdate {
  const out: DeliveryUpdate = {
    id: r.id,
    imageUrl: r.imageUrl,
    recipient: r.recipient,
    containerCount: r.containerCount,
    deliveryDate: r.deliveryDate,
    createdAt: r.createdAt.toISOString(),
  };
  if (r.imageWidth && r.imageHeight) {
    out.width = r.imageWidth;
    out.height = r.imageHeight;
    out.srcset = IMAGE_WIDTHS.map((w) => `${r.imageUrl}?w=${w} ${w}w`).join(', ');
  }
  return out;
}

/** Feed order (product rule): delivery date, newest first, then creation time. */
export async function listUpdates(db: DbOrTx): Promise<UpdateRow[]> {
  return db
    .select()
    .from(deliveryUpdates)
    .orderBy(
      desc(deliveryUpdates.deliveryDate),
      desc(deliveryUpdates.createdAt),
      desc(deliveryUpdates.id),
    );
}

export async function findUpdate(db: DbOrTx, id: string) {
  const rows = await db.select().from(deliveryUpdates).where(eq(deliveryUpdates.id, id));
  return rows[0];
}

export async function insertUpdate(
  db: DbOrTx,
  values: UpdateCreate & { imageWidth?: number; imageHeight?: number },
) {
  const rows = await db.insert(deliveryUpdates).values(values).returning();
  return rows[0]!;
}

export async function updateUpdate(
  db: DbOrTx,
  id: string,
  changes: UpdateEdit['updates'] & { imageWidth?: number; imageHeight?: number },
) {
  const rows = await db
    .update(deliveryUpdates)
    .set(changes)
    .where(eq(deliveryUpdates.id, id))
    .returning();
  return rows[0];
}

export async function deleteUpdate(db: DbOrTx, id: string) {
  const rows = await db.delete(deliveryUpdates).where(eq(deliveryUpdates.id, id)).returning();
  return rows[0];
}
