; llvm.tpc.shuffle of i8 lanes: the control of lane k is byte k of m; with
; its bit 7 set, lane k takes element c & 31 of 32-byte group (c >> 5) & 1
; of lane k's own 64-byte dual group of a, else it keeps b (the income)
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 256
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %a = call <256 x i8> @llvm.tpc.ld.tnsr.v256i8.i1(<5 x i32> %c, i8 0, i32 0, <256 x i8> undef, i1 true, i1 false)
  %m = call <256 x i8> @llvm.tpc.ld.tnsr.v256i8.i1(<5 x i32> %c, i8 1, i32 0, <256 x i8> undef, i1 true, i1 false)
  %b = call <256 x i8> @llvm.tpc.ld.tnsr.v256i8.i1(<5 x i32> %c, i8 2, i32 0, <256 x i8> undef, i1 true, i1 false)
  %r = call <256 x i8> @llvm.tpc.shuffle.v256i8.i1(<256 x i8> %a, <256 x i8> %m, i8 4, i32 0, <256 x i8> %b, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v256i8(<5 x i32> %c, i8 3, <256 x i8> %r, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <256 x i8> @llvm.tpc.ld.tnsr.v256i8.i1(<5 x i32>, i8, i32, <256 x i8>, i1, i1)
declare <256 x i8> @llvm.tpc.shuffle.v256i8.i1(<256 x i8>, <256 x i8>, i8, i32, <256 x i8>, i1, i1)
declare void @llvm.tpc.st.tnsr.v256i8(<5 x i32>, i8, <256 x i8>, i32, i1, i1)
