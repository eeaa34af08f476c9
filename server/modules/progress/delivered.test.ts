import type { Progress } from '@shared/schemas/progress';
import { describe, expect, test } from '../../../tests/support/fixtures';
import { openEventStream } from '../../../tests/support/sse';

/**
 * Pledged → received → delivered: containers delivered are the delivery updates'
 * container counts summed, and follow every create, edit and delete, in /api/progress and in the
 * live stream.
 */

describe('containers delivered', () => {
  test('follow update create, edit and delete; the live stream carries them', async ({
    app,
    adminClient,
    update,
  }) => {
    const progress = async () => (await (await app.request('/api/progress')).json()) as Progress;
    const start = (await progress()).containersDelivered!;
    expect(start).toBe(0);
    const stream = await openEventStream(app.baseUrl, '/api/progress/stream');
    try {
      const a = await update({ containerCount: 300, recipient: 'Shelter A' });
      await update({ containerCount: 120, recipient: 'Shelter B' });
      expect((await progress()).containersDelivered).toBe(420);
      const event = await stream.next(
        (e) => (JSON.parse(e.data) as { progress: Progress }).progress.containersDelivered === 420,
      );
      expect(event.event).toBe('progress');

      const edited = await adminClient.request(`/api/updates/${a.id}`, {
        method: 'PATCH',
        json: { updates: { containerCount: 350 } },
      });
      expect(edited.status).toBe(200);
      expect((await progress()).containersDelivered).toBe(470);

      const deleted = await adminClient.request(`/api/updates/${a.id}`, { method: 'DELETE' });
      expect(deleted.status).toBe(200);
      expect((await progress()).containersDelivered).toBe(120);
      await stream.next(
        (e) => (JSON.parse(e.data) as { progress: Progress }).progress.containersDelivered === 120,
      );
    } finally {
      stream.close();
    }
  });
});
