import { Controller, Get, Header, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PublicRoute } from '../auth/decorators/route-access.decorator';
import { type DownloadsManifest, DownloadsService } from './downloads.service';

/** Any response object with `setHeader` (Express's, or Fastify's reply through `raw`'s twin `header`). */
interface HeaderTarget {
  setHeader?: (name: string, value: string) => unknown;
  header?: (name: string, value: string) => unknown;
}

/**
 * The service's own packages (SDK tarball, Python wheel, MCP server tarball), for
 * `npm install <url>`, `pip install <url>` and `npx -y <url>`: public, as a registry is.
 * Files go out as a `StreamableFile`, which both of Nest's HTTP adapters send.
 */
@Controller('downloads')
@ApiExcludeController()
@PublicRoute()
export class DownloadsController {
  constructor(private readonly downloads: DownloadsService) {}

  /** What is served, with each file's path, size and SHA-256. */
  @Get()
  @Header('cache-control', 'no-cache')
  list(): Promise<DownloadsManifest> {
    return this.downloads.manifest();
  }

  @Get(':file')
  async file(
    @Param('file') file: string,
    @Res({ passthrough: true }) res: HeaderTarget,
  ): Promise<StreamableFile> {
    const found = await this.downloads.open(file);
    const set = (name: string, value: string) =>
      res.setHeader !== undefined ? res.setHeader(name, value) : res.header?.(name, value);
    // The same name may be rebuilt (a version is not bumped for every commit): revalidate by content.
    set('cache-control', 'no-cache');
    set('etag', `"${found.sha256}"`);
    set('x-content-type-options', 'nosniff');
    return new StreamableFile(found.stream, {
      type: found.type,
      length: found.size,
      disposition: `attachment; filename="${file}"`,
    });
  }
}
