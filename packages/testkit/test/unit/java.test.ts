import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { probeJavaRuntime } from '../../src/index.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zkts-java-test-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A directory holding an (empty, never run) `java` so findJava has something to find. */
function fakeJavaHome(): string {
  const home = tempDir();
  mkdirSync(join(home, 'bin'));
  writeFileSync(join(home, 'bin', 'java'), '');
  return home;
}

describe('probeJavaRuntime', () => {
  it('says how to install when java is missing', () => {
    const why = probeJavaRuntime({ PATH: tempDir() });
    expect(typeof why).toBe('string');
    expect(why).toMatch(/java was not found/);
    expect(why).toMatch(/apt-get install .*zookeeper/);
    expect(why).toMatch(/ZOOKEEPER_HOME/);
  });

  it('says which Debian jars are missing', () => {
    const why = probeJavaRuntime({ JAVA_HOME: fakeJavaHome(), PATH: '' }, tempDir());
    expect(why).toMatch(/jars are missing .*zookeeper\.jar/);
    expect(why).toMatch(/apt-get install/);
  });

  it('uses $ZOOKEEPER_HOME/lib/*.jar (and conf/) when set', () => {
    const home = tempDir();
    mkdirSync(join(home, 'lib'));
    for (const jar of ['zookeeper-3.8.4.jar', 'zookeeper-jute-3.8.4.jar', 'netty-handler-4.1.jar']) writeFileSync(join(home, 'lib', jar), '');
    const java = fakeJavaHome();
    const found = probeJavaRuntime({ JAVA_HOME: java, PATH: '', ZOOKEEPER_HOME: home });
    if (typeof found === 'string') throw new Error(found);
    expect(found.source).toBe('ZOOKEEPER_HOME');
    expect(found.java).toBe(join(java, 'bin', 'java'));
    expect(found.classpath.split(':')).toEqual(
      expect.arrayContaining([join(home, 'conf'), join(home, 'lib', 'zookeeper-3.8.4.jar'), join(home, 'lib', 'netty-handler-4.1.jar')]),
    );
  });

  it('rejects a ZOOKEEPER_HOME without the server jar', () => {
    const why = probeJavaRuntime({ JAVA_HOME: fakeJavaHome(), PATH: '', ZOOKEEPER_HOME: tempDir() });
    expect(why).toMatch(/ZOOKEEPER_HOME=.* has no lib\/zookeeper-\*\.jar/);
  });
});
