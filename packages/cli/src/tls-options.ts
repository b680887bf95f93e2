/**
 * `--tls`, `--tls-ca`, `--tls-cert`, `--tls-key`, `--tls-servername`: TLS to ZooKeeper's secureClientPort, read
 * from the command line into PEM text once, when the options are parsed. The files are checked then, so that a
 * wrong path or a file that holds no certificate is a usage-level error naming the option and the file, not a
 * connect failure retried until --timeout.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import type { ConnectionOptions } from 'node:tls';

import { flag, stringOption } from './args.js';
import type { OptionSpecs, ParsedArgs } from './args.js';
import { CliError, ExitCode, UsageError } from './exit-codes.js';

/** The TLS settings of a session: PEM text, read once. No CA means the system's CAs. */
export interface TlsSettings {
  readonly ca?: string | undefined;
  readonly cert?: string | undefined;
  readonly key?: string | undefined;
  /** The name sent as SNI and checked against the server's certificate (else the host of --server). */
  readonly servername?: string | undefined;
}

export const TLS_OPTIONS: OptionSpecs = {
  tls: { type: 'boolean', description: "connect with TLS (ZooKeeper's secureClientPort), trusting the system's CAs" },
  'tls-ca': { type: 'string', arg: 'FILE', description: 'trust the CAs of this PEM bundle instead (implies --tls)' },
  'tls-cert': { type: 'string', arg: 'FILE', description: 'client certificate, PEM, for x509 authentication (with --tls-key)' },
  'tls-key': { type: 'string', arg: 'FILE', description: 'private key of --tls-cert, PEM, unencrypted' },
  'tls-servername': { type: 'string', arg: 'NAME', description: "the server certificate's name to expect (and SNI), e.g. when --server is an IP" },
};

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

function readPem(option: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(ExitCode.NO_INPUT, `--${option}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
}

/** Every certificate of a PEM file must parse: TLS itself would ignore a garbled CA bundle without a word. */
function checkCertificates(option: string, file: string, pem: string): void {
  const blocks = pem.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) throw new CliError(ExitCode.DATA_ERROR, `--${option}: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (error) {
      throw new CliError(ExitCode.DATA_ERROR, `--${option}: ${file} holds a damaged certificate: ${(error as Error).message}`, { cause: error });
    }
  }
}

/** The TLS settings the options ask for; undefined for a plain connection (no --tls* option given). */
export function tlsSettings(args: ParsedArgs): TlsSettings | undefined {
  const caFile = stringOption(args, 'tls-ca');
  const certFile = stringOption(args, 'tls-cert');
  const keyFile = stringOption(args, 'tls-key');
  const servername = stringOption(args, 'tls-servername');
  // Each --tls-* option only makes sense over TLS, so any of them turns it on.
  const wanted = flag(args, 'tls') || caFile !== undefined || certFile !== undefined || keyFile !== undefined || servername !== undefined;
  if (!wanted) return undefined;
  if (certFile !== undefined && keyFile === undefined) throw new UsageError('--tls-cert needs --tls-key (the private key of the certificate)');
  if (keyFile !== undefined && certFile === undefined) throw new UsageError('--tls-key needs --tls-cert (the certificate of the key)');
  if (servername?.trim() === '') throw new UsageError('--tls-servername must not be empty');
  const ca = caFile === undefined ? undefined : readPem('tls-ca', caFile);
  if (caFile !== undefined && ca !== undefined) checkCertificates('tls-ca', caFile, ca);
  let cert: string | undefined;
  let key: string | undefined;
  if (certFile !== undefined && keyFile !== undefined) {
    cert = readPem('tls-cert', certFile);
    key = readPem('tls-key', keyFile);
    checkCertificates('tls-cert', certFile, cert);
    try {
      // Parses the key and checks that it belongs to the certificate.
      createSecureContext({ cert, key });
    } catch (error) {
      throw new CliError(ExitCode.DATA_ERROR, `--tls-key: ${keyFile} is not the unencrypted PEM key of ${certFile}: ${(error as Error).message}`, { cause: error });
    }
  }
  return { ca, cert, key, servername };
}

/** The client's `tls` option (node:tls): the system's CAs unless a CA bundle was given. */
export function tlsConnectionOptions(settings: TlsSettings): ConnectionOptions {
  const options: ConnectionOptions = {};
  if (settings.ca !== undefined) options.ca = settings.ca;
  if (settings.cert !== undefined) options.cert = settings.cert;
  if (settings.key !== undefined) options.key = settings.key;
  if (settings.servername !== undefined) options.servername = settings.servername;
  return options;
}
