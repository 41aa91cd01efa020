export {
  cifsUnavailableReason,
  createSambaUser,
  smbclient,
  smbService,
  type SambaUser,
  type SmbCredentials,
} from '../../../../libs/drivers/src/local/test-support/cifs-tools.js';
