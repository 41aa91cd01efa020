import { IsOptional, IsString } from 'class-validator';
import { IsStringMap } from './validators.js';

/** The allow_access action's body (reference 3.4); values are checked by the share's decider. */
export class AllowAccessDto {
  @IsString()
  access_type!: string;

  @IsString()
  access_to!: string;

  @IsOptional()
  @IsString()
  access_level?: string;

  @IsOptional()
  @IsStringMap()
  metadata?: Record<string, string>;
}

export class DenyAccessDto {
  @IsString()
  access_id!: string;
}
