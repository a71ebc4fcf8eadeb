import ImagePipeline

/// The data loader every network command uses: the one place to change when
/// the libcurl loader (`DataLoaders.platformDefault`, on the `curl` branch)
/// lands — on merge, return it here and delete ``InterimURLSessionLoader``.
func makeDataLoader() -> any DataLoading {
    InterimURLSessionLoader()
}
