import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ServiceMetrics } from '#hawser/platform';
import { Policy } from '../policy/route-policy.decorators.js';

/** This process's metrics in Prometheus text, for the administrator (or a scraper acting as one). */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: ServiceMetrics) {}

  @Get('metrics')
  @Policy('hawser:metrics:get')
  async scrape(@Res() res: Response): Promise<void> {
    const text = await this.metrics.render();
    res.setHeader('Content-Type', this.metrics.contentType);
    res.send(text);
  }
}
