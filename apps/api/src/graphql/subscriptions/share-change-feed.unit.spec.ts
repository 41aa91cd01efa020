import { SHARES } from '#hawser/projections';
import { ReadModelChanges } from '#hawser/read-models';
import { ShareChangeFeed, type ShareCommitted } from './share-change-feed.js';

const put = (id: string, project: string) => ({
  kind: 'put' as const,
  collection: SHARES,
  document: { id, project_id: project },
});

describe('ShareChangeFeed', () => {
  it('given no subscriber, then the read models are not followed at all', () => {
    const changes = new ReadModelChanges();
    new ShareChangeFeed(changes);

    expect(changes.followed).toBe(false);
  });

  it('given a subscriber, when shares change and one is deleted, then it hears both, and once it leaves nothing follows', () => {
    const changes = new ReadModelChanges();
    const feed = new ShareChangeFeed(changes);
    const heard: ShareCommitted[] = [];

    const stop = feed.listen((change) => heard.push(change));
    changes.publish([put('s1', 'p1')]);
    changes.publish([{ kind: 'delete', collection: SHARES, id: 's1' }]);
    stop();
    changes.publish([put('s2', 'p1')]);

    expect(heard.map(({ shareId, projectId, record }) => [shareId, projectId, !!record])).toEqual([
      ['s1', 'p1', true],
      ['s1', 'p1', false],
    ]);
    expect(changes.followed).toBe(false);
  });

  it('given two subscribers, when one leaves, then the other still hears changes', () => {
    const changes = new ReadModelChanges();
    const feed = new ShareChangeFeed(changes);
    const heard: string[] = [];
    const first = feed.listen(() => heard.push('first'));
    feed.listen(() => heard.push('second'));

    first();
    changes.publish([put('s1', 'p1')]);

    expect(heard).toEqual(['second']);
    expect(changes.followed).toBe(true);
  });
});
