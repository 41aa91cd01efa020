import { loadConfig } from '#hawser/platform';

const credentials = {
  HAWSER_AUTH: 'keystone',
  HAWSER_KEYSTONE_URL: 'http://127.0.0.1:5000',
  HAWSER_KEYSTONE_USERNAME: 'hawser',
  HAWSER_KEYSTONE_PASSWORD: 'secret',
};

describe('Keystone settings', () => {
  it('given HAWSER_AUTH=keystone and the required settings, applies the documented defaults', () => {
    expect(loadConfig(credentials).keystone).toEqual({
      url: 'http://127.0.0.1:5000/v3',
      username: 'hawser',
      password: 'secret',
      project: 'service',
      userDomain: 'Default',
      projectDomain: 'Default',
      cacheS: 300,
    });
  });

  it.each([
    ['http://keystone:5000/v3', 'http://keystone:5000/v3'],
    ['http://keystone:5000/v3/', 'http://keystone:5000/v3'],
    ['https://cloud.example/identity', 'https://cloud.example/identity/v3'],
  ])('given the URL %s, uses %s', (given, used) => {
    expect(loadConfig({ ...credentials, HAWSER_KEYSTONE_URL: given }).keystone?.url).toBe(used);
  });

  it('given every setting, uses them', () => {
    const keystone = loadConfig({
      ...credentials,
      HAWSER_KEYSTONE_PROJECT: 'services',
      HAWSER_KEYSTONE_USER_DOMAIN: 'users',
      HAWSER_KEYSTONE_PROJECT_DOMAIN: 'projects',
      HAWSER_KEYSTONE_CACHE_S: '30',
    }).keystone;

    expect(keystone).toMatchObject({
      project: 'services',
      userDomain: 'users',
      projectDomain: 'projects',
      cacheS: 30,
    });
  });

  it('given HAWSER_AUTH=keystone without URL or credentials, names what is missing', () => {
    expect(() =>
      loadConfig({ HAWSER_AUTH: 'keystone', HAWSER_KEYSTONE_USERNAME: 'hawser' }),
    ).toThrow(
      'environment variable HAWSER_KEYSTONE_URL: expected a value with HAWSER_AUTH=keystone, given nothing; ' +
        'environment variable HAWSER_KEYSTONE_PASSWORD: expected a value with HAWSER_AUTH=keystone, given nothing',
    );
  });

  it.each(['keystone:5000', 'ftp://keystone/v3'])('given the URL %s, refuses it', (url) => {
    expect(() => loadConfig({ ...credentials, HAWSER_KEYSTONE_URL: url })).toThrow(
      `environment variable HAWSER_KEYSTONE_URL: expected an http(s) URL, given "${url}"`,
    );
  });

  it('given noauth, reads no Keystone settings', () => {
    expect(loadConfig({ HAWSER_AUTH: 'noauth' }).keystone).toBeUndefined();
  });
});
