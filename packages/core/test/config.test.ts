import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ConfigError, loadSettings, parseIni, iniFromEnv } from '@repohost/core';

describe('settings', () => {
  it('defaults equal Forgejo\'s', () => {
    const s = loadSettings({ workPath: '/srv/forge' });
    expect(s.server.HTTP_ADDR).toBe('0.0.0.0');
    expect(s.server.HTTP_PORT).toBe(3000);
    expect(s.server.ROOT_URL).toBe('http://localhost:3000/');
    expect(s.server.APP_DATA_PATH).toBe(path.resolve('/srv/forge/data'));
    expect(s.database.DB_TYPE).toBe('sqlite3');
    expect(s.database.PATH).toBe(path.resolve('/srv/forge/data/forgejo.db'));
    expect(s.repository.ROOT).toBe(path.resolve('/srv/forge/data/forgejo-repositories'));
    expect(s.repository.MAX_CREATION_LIMIT).toBe(-1);
    expect(s.repository.ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT).toBe(true);
    expect(s.api.MAX_RESPONSE_ITEMS).toBe(50);
    expect(s.api.DEFAULT_PAGING_NUM).toBe(30);
    expect(s.ui.EXPLORE_PAGING_NUM).toBe(20);
    expect(s.security.DISABLE_QUERY_AUTH_TOKEN).toBe(false);
    expect(s.security.SECRET_KEY).toBe('');
    expect(s.service.ENABLE_REVERSE_PROXY_AUTHENTICATION_API).toBe(false);
  });

  it('reads app.ini sections, quotes and comments', () => {
    const s = loadSettings({
      workPath: '/w',
      configText: [
        'APP_NAME = My Forge',
        '; comment',
        '# another',
        '[server]',
        'HTTP_PORT = 8080',
        'DOMAIN = "git.example.com"',
        '[Database]',
        'db_type = postgres',
        'HOST = db:5433',
        'PASSWD = `p#ss;word`',
        '[repository]',
        'ROOT = repos',
        'MAX_CREATION_LIMIT = 3',
        'ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT = false',
        '[ui]',
        'REACTIONS = +1, heart',
      ].join('\n'),
    });
    expect(s.server.HTTP_PORT).toBe(8080);
    expect(s.server.ROOT_URL).toBe('http://git.example.com:8080/');
    expect(s.database.DB_TYPE).toBe('postgres');
    expect(s.database.HOST).toBe('db:5433');
    expect(s.database.PASSWD).toBe('p#ss;word');
    expect(s.repository.ROOT).toBe(path.resolve('/w/repos'));
    expect(s.repository.MAX_CREATION_LIMIT).toBe(3);
    expect(s.repository.ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT).toBe(false);
    expect(s.ui.REACTIONS).toEqual(['+1', 'heart']);
  });

  it('applies FORGEJO__SECTION__KEY over GITEA__ over the file', () => {
    const s = loadSettings({
      workPath: '/w',
      configText: '[api]\nMAX_RESPONSE_ITEMS = 10\n[security]\nDISABLE_QUERY_AUTH_TOKEN = false\n',
      env: {
        GITEA__API__MAX_RESPONSE_ITEMS: '20',
        FORGEJO__API__MAX_RESPONSE_ITEMS: '30',
        GITEA__security__DISABLE_QUERY_AUTH_TOKEN: 'true',
        FORGEJO__SERVER__ROOT_URL: 'https://forge.example.com',
        UNRELATED: 'x',
      },
    });
    expect(s.api.MAX_RESPONSE_ITEMS).toBe(30);
    expect(s.security.DISABLE_QUERY_AUTH_TOKEN).toBe(true);
    expect(s.server.ROOT_URL).toBe('https://forge.example.com/');
  });

  it('decodes escaped section names in environment keys', () => {
    const data = iniFromEnv({ FORGEJO__REPOSITORY_0X2E_UPLOAD__ENABLED: 'false' });
    expect(data.get('repository.upload')?.get('ENABLED')).toBe('false');
  });

  it('refuses malformed values, naming the setting', () => {
    expect(() => loadSettings({ configText: '[server]\nHTTP_PORT = lots' })).toThrow(/\[server\] HTTP_PORT/);
    expect(() => loadSettings({ configText: '[security]\nDISABLE_QUERY_AUTH_TOKEN = maybe' })).toThrow(ConfigError);
    expect(() => loadSettings({ configText: '[database]\nDB_TYPE = oracle' })).toThrow(/DB_TYPE/);
    expect(() => loadSettings({ configText: '[api]\nMAX_RESPONSE_ITEMS = 0' })).toThrow(/MAX_RESPONSE_ITEMS/);
    expect(() => parseIni('[server\nX=1')).toThrow(/line 1/);
    expect(() => loadSettings({ configFile: '/nonexistent/app.ini', requireConfigFile: true })).toThrow(/does not exist/);
  });
});
