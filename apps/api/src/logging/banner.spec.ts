import { describeDatabase, startBanner } from './banner';

describe('startBanner', () => {
  it('says where to open the service, the database, where data lives and how to stop', () => {
    const text = startBanner({ databaseUrl: undefined, dataDir: '/srv/interlock/.data' }, 3000);
    expect(text).toContain('http://localhost:3000');
    expect(text).toContain('embedded Postgres');
    expect(text).toContain('/srv/interlock/.data');
    expect(text).toContain('Ctrl+C');
    expect(text).not.toContain('Metrics');
    expect(startBanner({ databaseUrl: undefined, dataDir: '/d' }, 3000, 9464)).toContain(
      'http://localhost:9464/metrics',
    );
  });

  it('names an external database without its credentials', () => {
    const { database, data } = describeDatabase(
      'postgres://interlock:s3cret@db.internal:5432/interlock',
      '/unused',
    );
    expect(database).toBe('Postgres at db.internal:5432, database interlock');
    expect(database).not.toContain('s3cret');
    expect(data).toContain('pg_dump');
    expect(
      startBanner({ databaseUrl: 'postgres://u:s3cret@db/x', dataDir: '/d' }, 1),
    ).not.toContain('s3cret');
  });
});
