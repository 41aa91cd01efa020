"""Create the projects, users and role assignments Hawser's Keystone tests use.

Idempotent: each object is looked up by name and created only when missing; passwords are
(re)set every run so they match the state directory's env file. Reads KEYSTONE_URL,
the KEYSTONE_<WHO>_USERNAME, _PASSWORD and _PROJECT variables start-keystone.sh exports.
"""
import json
import os
import urllib.error
import urllib.request

URL = os.environ['KEYSTONE_URL']
DOMAIN = 'default'

# (variable prefix, role): the service user validates tokens; the others are callers.
USERS = [
    ('KEYSTONE_SERVICE', 'service'),
    ('KEYSTONE_MEMBER', 'member'),
    ('KEYSTONE_READER', 'reader'),
]


def call(method, path, token=None, body=None):
    request = urllib.request.Request(URL + path, method=method)
    request.add_header('Content-Type', 'application/json')
    if token:
        request.add_header('X-Auth-Token', token)
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(request, data, timeout=30) as response:
        text = response.read()
        return response.headers, (json.loads(text) if text else None)


def admin_token():
    headers, _ = call('POST', '/auth/tokens', body={'auth': {
        'identity': {'methods': ['password'], 'password': {'user': {
            'name': os.environ['KEYSTONE_ADMIN_USERNAME'], 'domain': {'id': DOMAIN},
            'password': os.environ['KEYSTONE_ADMIN_PASSWORD']}}},
        'scope': {'project': {
            'name': os.environ['KEYSTONE_ADMIN_PROJECT'], 'domain': {'id': DOMAIN}}}}})
    return headers['X-Subject-Token']


def ensure(token, collection, singular, name, extra):
    _, found = call('GET', f'/{collection}?name={name}', token)
    if found[collection]:
        return found[collection][0]['id']
    _, created = call('POST', f'/{collection}', token, {singular: {'name': name, **extra}})
    return created[singular]['id']


def main():
    token = admin_token()
    for prefix, role in USERS:
        project = os.environ[prefix + '_PROJECT']
        user = os.environ[prefix + '_USERNAME']
        password = os.environ[prefix + '_PASSWORD']
        project_id = ensure(token, 'projects', 'project', project, {'domain_id': DOMAIN})
        role_id = ensure(token, 'roles', 'role', role, {})
        user_id = ensure(token, 'users', 'user', user, {'domain_id': DOMAIN, 'password': password})
        call('PATCH', f'/users/{user_id}', token, {'user': {'password': password}})
        call('PUT', f'/projects/{project_id}/users/{user_id}/roles/{role_id}', token)


if __name__ == '__main__':
    try:
        main()
    except urllib.error.HTTPError as error:
        raise SystemExit(f'Keystone answered {error.code}: {error.read().decode()}')
