describe('app.config', () => {
  beforeAll(() => {
    ;(globalThis as { defineAppConfig?: unknown }).defineAppConfig = (config: unknown) => config
  })

  it('times out requests, sockets, uploads and downloads after 60000 ms (SPEC section 9)', () => {
    const config = jest.requireActual<{ default: { networkTimeout: Record<string, number> } }>(
      '../app.config',
    ).default
    expect(config.networkTimeout).toEqual({
      request: 60000,
      connectSocket: 60000,
      uploadFile: 60000,
      downloadFile: 60000,
    })
  })
})
