/** The store file a local command works on: its --store flag, else the default ($CR_STORE…). */
export async function storePathOf(env: NodeJS.ProcessEnv, flag?: string): Promise<string> {
  if (flag) return flag;
  const { defaultStorePath } = await import('../server/store/store-path.js');
  return defaultStorePath(env);
}
