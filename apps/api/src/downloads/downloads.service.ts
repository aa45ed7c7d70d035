import { createReadStream, type ReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DomainError } from '@interlock/domain';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/** One built package, as `tools/scripts/build-downloads.mjs` records it in `manifest.json`. */
export interface DownloadablePackage {
  /** The package's own name: `@interlock/sdk`, `interlock-sdk`, `@interlock/mcp`. */
  name: string;
  kind: 'npm' | 'python';
  version: string;
  /** The file name under `/downloads/` (a wheel's name is what pip requires of it). */
  file: string;
  sha256: string;
  size: number;
}

export interface DownloadsManifest {
  packages: (DownloadablePackage & { path: string })[];
}

export interface DownloadFile {
  stream: ReadStream;
  size: number;
  sha256: string;
  type: string;
}

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * The packages the service serves at `/downloads/…` (issue 32 §4: nothing is published to a
 * registry, so agents install from the service they use). Only files the manifest lists are
 * served, by exact name: nothing else under the directory, and no path is ever built from a
 * name the manifest does not hold. Read at each request, so a rebuild shows without a restart.
 */
@Injectable()
export class DownloadsService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async manifest(): Promise<DownloadsManifest> {
    const packages = await this.packages();
    return { packages: packages.map((p) => ({ ...p, path: `/downloads/${p.file}` })) };
  }

  async open(file: string): Promise<DownloadFile> {
    const found = FILE_NAME.test(file)
      ? (await this.packages()).find((p) => p.file === file)
      : undefined;
    if (found === undefined) throw DomainError.of('NOT_FOUND');
    const path = join(this.config.downloadsDir, found.file);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile()) throw DomainError.of('NOT_FOUND');
    return {
      stream: createReadStream(path),
      size: info.size,
      sha256: found.sha256,
      type: found.file.endsWith('.whl') ? 'application/zip' : 'application/gzip',
    };
  }

  private async packages(): Promise<DownloadablePackage[]> {
    let text: string;
    try {
      text = await readFile(join(this.config.downloadsDir, 'manifest.json'), 'utf8');
    } catch {
      return []; // not built: nothing to serve
    }
    const parsed = JSON.parse(text) as { packages?: unknown };
    if (!Array.isArray(parsed.packages)) return [];
    return parsed.packages.filter(
      (p): p is DownloadablePackage =>
        typeof p === 'object' &&
        p !== null &&
        typeof (p as DownloadablePackage).file === 'string' &&
        FILE_NAME.test((p as DownloadablePackage).file),
    );
  }
}
