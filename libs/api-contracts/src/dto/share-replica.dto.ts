import { IsObject, IsOptional, IsString } from 'class-validator';
import { IsNullableString } from './validators.js';

/** The `share_replica` object of POST /v2/share-replicas (reference 3.7). */
export class CreateShareReplicaDto {
  @IsString()
  share_id!: string;

  @IsOptional()
  @IsNullableString()
  availability_zone?: string | null;

  @IsOptional()
  @IsNullableString()
  share_network_id?: string | null;

  @IsOptional()
  @IsObject()
  scheduler_hints?: Record<string, unknown>;
}
