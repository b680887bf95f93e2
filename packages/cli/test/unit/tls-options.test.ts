// The --tls* options: which combinations turn TLS on, the files read once and checked (exit 66 unreadable,
// 65 not PEM or a key of another certificate, 64 a certificate without its key), the client's tls options, and
// TLS failures put in words. The connections themselves are tested against a real server in
// test/integration/tls.test.ts.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ConnectionLossError } from '@zkts/protocol';
import { afterAll, describe, expect, it } from 'vitest';

import { parseArgv } from '../../src/args.js';
import { COMMANDS } from '../../src/commands/index.js';
import { FailureTracker, failureReason, hopelessSummary } from '../../src/connect-failures.js';
import { CliError, ExitCode } from '../../src/exit-codes.js';
import { GLOBAL_OPTIONS, globalOptions, takesValue } from '../../src/global-options.js';
import { mainHelp } from '../../src/help.js';
import { opensslReason, tlsFailureText } from '../../src/tls-failures.js';
import { tlsConnectionOptions } from '../../src/tls-options.js';
import { runInProcess } from '../support/run-in-process.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
const CERT = join(FIXTURES, 'client.pem');
const KEY = join(FIXTURES, 'client.key');
const dir = mkdtempSync(join(tmpdir(), 'zkts-tls-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const parse = (argv: string[]) => globalOptions(parseArgv(argv, GLOBAL_OPTIONS), {});
function failure(argv: string[]): CliError {
  try {
    parse(argv);
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
}

describe('--tls options', () => {
  it('no --tls* option: a plain connection', () => {
    expect(parse([]).tls).toBeUndefined();
  });

  it("--tls alone: TLS with the system's CAs (no ca option at all)", () => {
    const tls = parse(['--tls']).tls;
    expect(tls).toBeDefined();
    expect(tlsConnectionOptions(tls ?? {})).toEqual({});
  });

  it('--tls-ca, --tls-cert/--tls-key and --tls-servername each imply --tls, and carry the files read', () => {
    const pem = readFileSync(CERT, 'utf8');
    expect(tlsConnectionOptions(parse(['--tls-ca', CERT]).tls ?? {})).toEqual({ ca: pem });
    expect(tlsConnectionOptions(parse(['--tls-cert', CERT, '--tls-key', KEY]).tls ?? {})).toEqual({ cert: pem, key: readFileSync(KEY, 'utf8') });
    expect(tlsConnectionOptions(parse(['--tls-servername', 'zk.example.com']).tls ?? {})).toEqual({ servername: 'zk.example.com' });
    expect(tlsConnectionOptions(parse(['--tls', '--tls-ca=' + CERT, '--tls-servername=localhost']).tls ?? {})).toEqual({ ca: pem, servername: 'localhost' });
  });

  it('a certificate without its key, or a key without its certificate, is a usage error', () => {
    expect(failure(['--tls-cert', CERT])).toMatchObject({ exitCode: ExitCode.USAGE, message: '--tls-cert needs --tls-key (the private key of the certificate)' });
    expect(failure(['--tls-key', KEY])).toMatchObject({ exitCode: ExitCode.USAGE, message: '--tls-key needs --tls-cert (the certificate of the key)' });
    expect(failure(['--tls-servername', ' '])).toMatchObject({ exitCode: ExitCode.USAGE });
  });

  it('an unreadable file: exit 66 naming the option and the file', () => {
    const missing = join(dir, 'missing.pem');
    expect(failure(['--tls-ca', missing])).toMatchObject({ exitCode: ExitCode.NO_INPUT, message: `--tls-ca: cannot read ${missing}: ENOENT` });
    expect(failure(['--tls-cert', missing, '--tls-key', KEY])).toMatchObject({ exitCode: ExitCode.NO_INPUT, message: `--tls-cert: cannot read ${missing}: ENOENT` });
    expect(failure(['--tls-cert', CERT, '--tls-key', missing])).toMatchObject({ exitCode: ExitCode.NO_INPUT, message: `--tls-key: cannot read ${missing}: ENOENT` });
    expect(failure(['--tls-ca', dir])).toMatchObject({ exitCode: ExitCode.NO_INPUT, message: `--tls-ca: cannot read ${dir}: EISDIR` });
  });

  it('a file without a PEM certificate, a damaged one, or a key of another certificate: exit 65', () => {
    const text = join(dir, 'text.pem');
    writeFileSync(text, 'not a certificate\n');
    expect(failure(['--tls-ca', text])).toMatchObject({ exitCode: ExitCode.DATA_ERROR, message: `--tls-ca: ${text} holds no PEM certificate (-----BEGIN CERTIFICATE-----)` });
    const damaged = join(dir, 'damaged.pem');
    writeFileSync(damaged, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(failure(['--tls-ca', damaged]).message).toMatch(/^--tls-ca: .*damaged\.pem holds a damaged certificate/);
    const otherKey = join(dir, 'other.key');
    writeFileSync(otherKey, generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(failure(['--tls-cert', CERT, '--tls-key', otherKey])).toMatchObject({ exitCode: ExitCode.DATA_ERROR });
    expect(failure(['--tls-cert', CERT, '--tls-key', otherKey]).message).toMatch(/^--tls-key: .*other\.key is not the unencrypted PEM key of .*client\.pem: /);
  });

  it('the value-taking ones are skipped when looking for the command name; --tls is not', async () => {
    expect(takesValue('--tls-ca')).toBe(true);
    expect(takesValue('--tls-servername')).toBe(true);
    expect(takesValue('--tls')).toBe(false);
    // Found `ls` after them: the error is ls's usage error, not "unknown command 'ca.pem'".
    const result = await runInProcess(COMMANDS, ['--tls', '--tls-servername', 'zk', '--tls-cert', CERT, 'ls', '/']);
    expect(result).toMatchObject({ code: ExitCode.USAGE, stderr: 'zkts: ls: --tls-cert needs --tls-key (the private key of the certificate)\nusage: zkts ls [-R] [-s] [-w] [PATH]\n' });
  });

  it('are listed in the help', () => {
    const help = mainHelp(COMMANDS);
    for (const option of ['--tls ', '--tls-ca FILE', '--tls-cert FILE', '--tls-key FILE', '--tls-servername NAME']) expect(help).toContain(option);
  });
});

describe('TLS failures in words', () => {
  const attempt = (host: string, code: string, message: string) => ({ host, error: new ConnectionLossError(`cannot connect to ${host}: ${message}`, false, { cause: Object.assign(new Error(message), { code }) }), at: 0 });

  it('an unknown CA, a name mismatch, a plain port and a required client certificate: one line each, final', () => {
    const cases: [string, string, RegExp][] = [
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate', /^TLS: certificate signed by an unknown authority/],
      ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain', /^TLS: certificate signed by an unknown authority/],
      ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames: Host: zk.example. is not in the cert's altnames: DNS:localhost", /^TLS: the certificate is not for this host: Host: zk\.example\. is not in the cert's altnames: DNS:localhost/],
      ['ECONNRESET', 'Client network socket disconnected before secure TLS connection was established', /^TLS: the server closed the connection during the handshake/],
      ['ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number', /^TLS: the server does not speak TLS/],
      [
        'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
        '80ACACCA4D7F0000:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 116\n',
        /^TLS: the server requires a client certificate/,
      ],
      ['ERR_SSL_SOMETHING_NEW', '80AC:error:0A000000:SSL routines:some_function:something new happened:../deps/x.c:1:\n', /^TLS: something new happened$/],
    ];
    for (const [code, message, words] of cases) {
      const reason = failureReason(attempt('h:1', code, message).error);
      expect(reason, code).toMatchObject({ code, final: true });
      expect(reason.text, code).toMatch(words);
      expect(reason.text, code).not.toContain('\n');
    }
  });

  it('a reset outside a TLS handshake stays retryable; refused stays final', () => {
    expect(failureReason(attempt('h:1', 'ECONNRESET', 'read ECONNRESET').error)).toEqual({ code: 'ECONNRESET', text: 'connection reset', final: false });
    expect(failureReason(attempt('h:1', 'ECONNREFUSED', 'connect ECONNREFUSED').error)).toEqual({ code: 'ECONNREFUSED', text: 'connection refused', final: true });
    expect(tlsFailureText('ECONNREFUSED', 'connect ECONNREFUSED')).toBeUndefined();
  });

  it('the tracker gives up once every host failed its handshake, and the summary says TLS', () => {
    const tracker = new FailureTracker(['a:1', 'b:2']);
    expect(tracker.add(attempt('a:1', 'SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'))).toBe(false);
    expect(tracker.add(attempt('b:2', 'ECONNREFUSED', 'connect ECONNREFUSED'))).toBe(true);
    expect(hopelessSummary(tracker.attempts())).toBe('every host refused, is unknown or failed the TLS handshake');
    expect(hopelessSummary([attempt('a:1', 'ERR_TLS_CERT_ALTNAME_INVALID', 'Hostname/IP does not match: x')])).toBe('the TLS handshake failed with every host');
    expect(hopelessSummary([attempt('a:1', 'ECONNREFUSED', 'connect ECONNREFUSED')])).toBe('every host refused or is unknown');
  });

  it("OpenSSL's error strings are cut down to their reason", () => {
    expect(opensslReason('80ACACCA4D7F0000:error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:../deps/openssl/ssl/rec_layer_s3.c:1605:SSL alert number 48\n')).toBe('tlsv1 alert unknown ca');
    expect(opensslReason('plain words')).toBe('plain words');
  });
});
