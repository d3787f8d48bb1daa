// Does nothing: linked with LibTorch (without --as-needed dropping it), its
// start-up time and memory are what every t2n process pays before main().
int main() {
    return 0;
}
